//! The CrossLaneReduce instruction (instruction.md): the 64-byte `S4D4_CR`
//! struct, its validation, and its execution over an SBUF model.
//!
//! [`RawInstruction`] holds every field as stored, so any 64 bytes decode
//! and encode back exactly; [`RawInstruction::validate`] applies the rules
//! of instruction.md §3 in order and yields a typed [`Instruction`], which
//! [`exec::execute`] runs.

pub mod dtype;
pub mod exec;
pub mod fp;

pub use dtype::{Dtype, MiniFloat};

use std::fmt;

/// The two opcodes sharing the struct.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Opcode {
    CrossLaneReduceArith = 0x7c,
    CrossLaneReduceBitvec = 0x7d,
}

impl Opcode {
    pub fn from_code(code: u8) -> Option<Opcode> {
        match code {
            0x7c => Some(Opcode::CrossLaneReduceArith),
            0x7d => Some(Opcode::CrossLaneReduceBitvec),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Opcode::CrossLaneReduceArith => "CROSS_LANE_REDUCE_ARITH",
            Opcode::CrossLaneReduceBitvec => "CROSS_LANE_REDUCE_BITVEC",
        }
    }
}

/// NEURON_ISA_TPB_REDUCE_OP.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduceOp {
    Add = 0,
    Average = 1,
    Max = 2,
    BitwiseOr = 3,
    BitwiseAnd = 4,
    BitwiseXor = 5,
}

impl ReduceOp {
    pub const ALL: [ReduceOp; 6] = [
        ReduceOp::Add,
        ReduceOp::Average,
        ReduceOp::Max,
        ReduceOp::BitwiseOr,
        ReduceOp::BitwiseAnd,
        ReduceOp::BitwiseXor,
    ];

    pub fn from_code(code: u8) -> Option<ReduceOp> {
        ReduceOp::ALL.get(code as usize).copied()
    }

    pub fn name(self) -> &'static str {
        match self {
            ReduceOp::Add => "ADD",
            ReduceOp::Average => "AVERAGE",
            ReduceOp::Max => "MAX",
            ReduceOp::BitwiseOr => "BITWISE_OR",
            ReduceOp::BitwiseAnd => "BITWISE_AND",
            ReduceOp::BitwiseXor => "BITWISE_XOR",
        }
    }

    /// The opcode that takes this op (instruction.md §3 rule 5).
    pub fn opcode(self) -> Opcode {
        match self {
            ReduceOp::Add | ReduceOp::Average | ReduceOp::Max => Opcode::CrossLaneReduceArith,
            _ => Opcode::CrossLaneReduceBitvec,
        }
    }
}

/// NEURON_ISA_TPB_REDUCE_AXIS.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduceAxis {
    All = 0,
    Partitions = 1,
}

impl ReduceAxis {
    pub fn from_code(code: u8) -> Option<ReduceAxis> {
        match code {
            0 => Some(ReduceAxis::All),
            1 => Some(ReduceAxis::Partitions),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ReduceAxis::All => "All",
            ReduceAxis::Partitions => "Partitions",
        }
    }
}

/// Partitions of the SBUF.
pub const PARTITIONS: usize = 128;

/// The largest partition the byte-offset field (21 bits) can address.
pub const MAX_PARTITION_BYTES: usize = 1 << 21;

/// The SBUF partition size when a case does not name one.
pub const DEFAULT_PARTITION_BYTES: usize = 65536;

/// A TENSOR4D access pattern as stored (20 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Tensor4d {
    pub start_addr: u32,
    /// Signed element strides, dimension 0 innermost.
    pub step_elem: [i16; 4],
    pub num_elem: [u16; 4],
}

impl Tensor4d {
    /// Bits 31..29: the addressing mode (0 = immediate).
    pub fn mode(&self) -> u32 {
        self.start_addr >> 29
    }

    /// Bit 28: must be clear.
    pub fn bit28(&self) -> bool {
        (self.start_addr >> 28) & 1 == 1
    }

    /// Bits 27..21: the start partition.
    pub fn partition(&self) -> usize {
        ((self.start_addr >> 21) & 0x7f) as usize
    }

    /// Bits 20..0: the byte offset inside the partition.
    pub fn offset(&self) -> usize {
        (self.start_addr & 0x1f_ffff) as usize
    }

    /// An immediate address from its parts (partition < 128, offset < 2^21).
    pub fn immediate(partition: usize, offset: usize) -> u32 {
        (((partition as u32) & 0x7f) << 21) | (offset as u32 & 0x1f_ffff)
    }

    /// Elements the pattern visits.
    pub fn elements(&self) -> u64 {
        self.num_elem.iter().map(|&n| n as u64).product()
    }

    /// The lowest and highest element index (in elements, relative to the
    /// start) the pattern reaches.
    pub fn span(&self) -> (i64, i64) {
        let mut lo = 0i64;
        let mut hi = 0i64;
        for d in 0..4 {
            let reach = (self.num_elem[d].max(1) as i64 - 1) * self.step_elem[d] as i64;
            if reach < 0 {
                lo += reach;
            } else {
                hi += reach;
            }
        }
        (lo, hi)
    }

    /// Byte offsets of the elements in walk order (dimension 0 innermost).
    pub fn offsets(&self, size: usize) -> impl Iterator<Item = usize> + '_ {
        let [n0, n1, n2, n3] = self.num_elem.map(|n| n as i64);
        let [s0, s1, s2, s3] = self.step_elem.map(|s| s as i64);
        let base = self.offset() as i64;
        let size = size as i64;
        (0..n3).flat_map(move |i3| {
            (0..n2).flat_map(move |i2| {
                (0..n1).flat_map(move |i1| {
                    (0..n0).map(move |i0| (base + (i0 * s0 + i1 * s1 + i2 * s2 + i3 * s3) * size) as usize)
                })
            })
        })
    }

    fn read(b: &[u8]) -> Tensor4d {
        let u16_at = |o: usize| u16::from_le_bytes([b[o], b[o + 1]]);
        Tensor4d {
            start_addr: u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            step_elem: std::array::from_fn(|d| u16_at(4 + 2 * d) as i16),
            num_elem: std::array::from_fn(|d| u16_at(12 + 2 * d)),
        }
    }

    /// The 20 bytes of the tensor (as in the instruction) into `b[..20]`.
    pub fn write(&self, b: &mut [u8]) {
        b[0..4].copy_from_slice(&self.start_addr.to_le_bytes());
        for d in 0..4 {
            b[4 + 2 * d..6 + 2 * d].copy_from_slice(&self.step_elem[d].to_le_bytes());
            b[12 + 2 * d..14 + 2 * d].copy_from_slice(&self.num_elem[d].to_le_bytes());
        }
    }
}

/// The 64-byte `S4D4_CR` struct, every field as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RawInstruction {
    pub opcode: u8,
    /// Header bytes 1..3: carried through, not interpreted.
    pub header: [u8; 3],
    /// Event bytes: carried through, not interpreted.
    pub events: [u8; 8],
    pub src: Tensor4d,
    pub in_dtype: u8,
    pub out_dtype: u8,
    pub num_active_channels: u8,
    pub reduce_op: u8,
    pub reduce_axis: u8,
    pub reserved0: [u8; 3],
    /// IEEE binary32 bits.
    pub scale: u32,
    pub dst: Tensor4d,
}

impl RawInstruction {
    pub const BYTES: usize = 64;

    pub fn decode(b: &[u8; 64]) -> RawInstruction {
        RawInstruction {
            opcode: b[0],
            header: [b[1], b[2], b[3]],
            events: std::array::from_fn(|i| b[4 + i]),
            src: Tensor4d::read(&b[12..32]),
            in_dtype: b[32],
            out_dtype: b[33],
            num_active_channels: b[34],
            reduce_op: b[35],
            reduce_axis: b[36],
            reserved0: [b[37], b[38], b[39]],
            scale: u32::from_le_bytes([b[40], b[41], b[42], b[43]]),
            dst: Tensor4d::read(&b[44..64]),
        }
    }

    pub fn encode(&self) -> [u8; 64] {
        let mut b = [0u8; 64];
        b[0] = self.opcode;
        b[1..4].copy_from_slice(&self.header);
        b[4..12].copy_from_slice(&self.events);
        self.src.write(&mut b[12..32]);
        b[32] = self.in_dtype;
        b[33] = self.out_dtype;
        b[34] = self.num_active_channels;
        b[35] = self.reduce_op;
        b[36] = self.reduce_axis;
        b[37..40].copy_from_slice(&self.reserved0);
        b[40..44].copy_from_slice(&self.scale.to_le_bytes());
        self.dst.write(&mut b[44..64]);
        b
    }

    /// Parse 128 hex digits (the bytes in memory order, optional `0x`).
    pub fn from_hex(text: &str) -> Result<RawInstruction, crate::HexError> {
        let body = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")).unwrap_or(text);
        let found = body.chars().count();
        if found != 128 {
            return Err(crate::HexError::Length { expected: 128, found });
        }
        let mut b = [0u8; 64];
        for (i, c) in body.chars().enumerate() {
            let d = c.to_digit(16).ok_or(crate::HexError::Digit { position: i, found: c })? as u8;
            b[i / 2] |= if i % 2 == 0 { d << 4 } else { d };
        }
        Ok(RawInstruction::decode(&b))
    }

    pub fn to_hex(&self) -> String {
        self.encode().iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Apply the rules of instruction.md §3 in order.
    pub fn validate(&self, partition_bytes: usize) -> Result<Instruction, Reject> {
        use Reject::*;
        let opcode = Opcode::from_code(self.opcode).ok_or(BadOpcode(self.opcode))?;
        if self.reserved0 != [0; 3] || self.in_dtype >> 4 != 0 || self.out_dtype >> 4 != 0 {
            return Err(Reserved { reserved0: self.reserved0, in_dtype: self.in_dtype, out_dtype: self.out_dtype });
        }
        let in_dtype = match Dtype::from_code(self.in_dtype) {
            Some(d) if d != Dtype::Invalid && d != Dtype::Fp32r => d,
            _ => return Err(InDtype(self.in_dtype)),
        };
        let out_dtype = match Dtype::from_code(self.out_dtype) {
            Some(d) if d != Dtype::Invalid => d,
            _ => return Err(OutDtype(self.out_dtype)),
        };
        let reduce_op = ReduceOp::from_code(self.reduce_op).ok_or(BadReduceOp { code: self.reduce_op, opcode })?;
        if reduce_op.opcode() != opcode {
            return Err(BadReduceOp { code: self.reduce_op, opcode });
        }
        let reduce_axis = ReduceAxis::from_code(self.reduce_axis).ok_or(BadReduceAxis(self.reduce_axis))?;
        let start = self.src.partition();
        let channels = self.num_active_channels as usize;
        if channels == 0 || start + channels > PARTITIONS {
            return Err(ActiveChannels { start, channels });
        }
        for (which, t) in [(Side::Src, &self.src), (Side::Dst, &self.dst)] {
            if t.mode() != 0 || t.bit28() {
                return Err(Addr { side: which, start_addr: t.start_addr });
            }
        }
        for (which, t, dtype) in [(Side::Src, &self.src, in_dtype), (Side::Dst, &self.dst, out_dtype)] {
            check_tensor(which, t, dtype, partition_bytes)?;
        }
        let (src_n, dst_n) = (self.src.elements(), self.dst.elements());
        let dst_ok = match reduce_axis {
            ReduceAxis::All => dst_n == 1,
            ReduceAxis::Partitions => dst_n == src_n,
        };
        if !dst_ok {
            return Err(DstElements { axis: reduce_axis, src: src_n, dst: dst_n });
        }
        if opcode == Opcode::CrossLaneReduceBitvec
            && !(in_dtype.is_integer() && in_dtype.size() <= 4 && out_dtype.size() == in_dtype.size())
        {
            return Err(BitvecDtype { in_dtype, out_dtype });
        }
        Ok(Instruction {
            raw: *self,
            opcode,
            in_dtype,
            out_dtype,
            reduce_op,
            reduce_axis,
            channels,
            scale: f32::from_bits(self.scale),
            partition_bytes,
        })
    }
}

fn check_tensor(side: Side, t: &Tensor4d, dtype: Dtype, partition_bytes: usize) -> Result<(), Reject> {
    if let Some(d) = t.num_elem.iter().position(|&n| n == 0) {
        return Err(Reject::Tensor { side, problem: format!("num_elem[{d}] is 0") });
    }
    let size = dtype.size();
    if !t.offset().is_multiple_of(size) {
        return Err(Reject::Tensor {
            side,
            problem: format!("offset {} is not aligned to the {}-byte {}", t.offset(), size, dtype.name()),
        });
    }
    let (lo, hi) = t.span();
    let first = t.offset() as i64 + lo * size as i64;
    let last = t.offset() as i64 + hi * size as i64 + size as i64 - 1;
    if first < 0 || last >= partition_bytes as i64 {
        return Err(Reject::Tensor {
            side,
            problem: format!("touches bytes {first}..={last}, outside the partition of {partition_bytes} bytes"),
        });
    }
    Ok(())
}

/// Which tensor a rule speaks of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Src,
    Dst,
}

impl Side {
    fn name(self) -> &'static str {
        match self {
            Side::Src => "src",
            Side::Dst => "dst",
        }
    }
}

/// Why an instruction was rejected: one variant per rule of instruction.md
/// §3, whose message begins with the rule's name.
#[derive(Clone, Debug, PartialEq)]
pub enum Reject {
    BadOpcode(u8),
    Reserved { reserved0: [u8; 3], in_dtype: u8, out_dtype: u8 },
    InDtype(u8),
    OutDtype(u8),
    BadReduceOp { code: u8, opcode: Opcode },
    BadReduceAxis(u8),
    ActiveChannels { start: usize, channels: usize },
    Addr { side: Side, start_addr: u32 },
    Tensor { side: Side, problem: String },
    DstElements { axis: ReduceAxis, src: u64, dst: u64 },
    BitvecDtype { in_dtype: Dtype, out_dtype: Dtype },
}

/// The rules' names in the order instruction.md §3 checks them; the RTL
/// engine reports a reject as the rule's number here plus one (`rule_o`,
/// 0 for an accepted instruction).
pub const RULE_NAMES: [&str; 13] = [
    "opcode",
    "reserved",
    "in_dtype",
    "out_dtype",
    "reduce_op",
    "reduce_axis",
    "active_channels",
    "src_addr",
    "dst_addr",
    "src_tensor",
    "dst_tensor",
    "dst_elements",
    "bitvec_dtype",
];

impl Reject {
    /// The rule's number, 1 to 13: its place in [`RULE_NAMES`] plus one.
    pub fn code(&self) -> u8 {
        let rule = self.rule();
        RULE_NAMES.iter().position(|n| *n == rule).map_or(0, |i| i as u8 + 1)
    }

    /// The rule's name, as instruction.md §3 spells it.
    pub fn rule(&self) -> String {
        match self {
            Reject::BadOpcode(_) => "opcode".into(),
            Reject::Reserved { .. } => "reserved".into(),
            Reject::InDtype(_) => "in_dtype".into(),
            Reject::OutDtype(_) => "out_dtype".into(),
            Reject::BadReduceOp { .. } => "reduce_op".into(),
            Reject::BadReduceAxis(_) => "reduce_axis".into(),
            Reject::ActiveChannels { .. } => "active_channels".into(),
            Reject::Addr { side, .. } => format!("{}_addr", side.name()),
            Reject::Tensor { side, .. } => format!("{}_tensor", side.name()),
            Reject::DstElements { .. } => "dst_elements".into(),
            Reject::BitvecDtype { .. } => "bitvec_dtype".into(),
        }
    }
}

fn dtype_label(code: u8) -> String {
    match Dtype::from_code(code) {
        Some(d) => format!("{code:#x} ({})", d.name()),
        None => format!("{code:#x}"),
    }
}

impl fmt::Display for Reject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.rule())?;
        match self {
            Reject::BadOpcode(c) => write!(f, "opcode {c:#04x} is neither 0x7c (ARITH) nor 0x7d (BITVEC)"),
            Reject::Reserved { reserved0, in_dtype, out_dtype } => write!(
                f,
                "reserved0 {:02x}{:02x}{:02x} must be 0 and the dtype bytes' high nibbles clear (in_dtype {in_dtype:#04x}, out_dtype {out_dtype:#04x})",
                reserved0[0], reserved0[1], reserved0[2]
            ),
            Reject::InDtype(c) => write!(f, "in_dtype {} is not a valid input dtype (INVALID and FP32R are not)", dtype_label(*c)),
            Reject::OutDtype(c) => write!(f, "out_dtype {} is not a valid dtype", dtype_label(*c)),
            Reject::BadReduceOp { code, opcode } => match ReduceOp::from_code(*code) {
                Some(op) => write!(f, "reduce_op {code} ({}) does not go with {}", op.name(), opcode.name()),
                None => write!(f, "reduce_op {code} is not 0..5"),
            },
            Reject::BadReduceAxis(c) => write!(f, "reduce_axis {c} is neither 0 (All) nor 1 (Partitions)"),
            Reject::ActiveChannels { start, channels } => {
                if *channels == 0 {
                    write!(f, "num_active_channels is 0")
                } else {
                    write!(f, "start partition {start} + {channels} channels > {PARTITIONS}")
                }
            }
            Reject::Addr { side, start_addr } => write!(
                f,
                "{}.start_addr {start_addr:#010x} is not an immediate address (mode bits {:03b}, bit 28 {})",
                side.name(),
                start_addr >> 29,
                (start_addr >> 28) & 1
            ),
            Reject::Tensor { side, problem } => write!(f, "{} {problem}", side.name()),
            Reject::DstElements { axis, src, dst } => match axis {
                ReduceAxis::All => write!(f, "axis All writes 1 element but dst has {dst}"),
                ReduceAxis::Partitions => write!(f, "axis Partitions writes {src} elements (as src) but dst has {dst}"),
            },
            Reject::BitvecDtype { in_dtype, out_dtype } => write!(
                f,
                "BITVEC needs an integer in_dtype of 1, 2 or 4 bytes and an out_dtype of the same width (in {} {} bytes, out {} {} bytes)",
                in_dtype.name(),
                in_dtype.size(),
                out_dtype.name(),
                out_dtype.size()
            ),
        }
    }
}

impl std::error::Error for Reject {}

/// A validated instruction: only [`RawInstruction::validate`] makes one, so
/// every access it implies lies inside an SBUF of the size it was checked
/// against.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Instruction {
    pub(crate) raw: RawInstruction,
    pub(crate) opcode: Opcode,
    pub(crate) in_dtype: Dtype,
    pub(crate) out_dtype: Dtype,
    pub(crate) reduce_op: ReduceOp,
    pub(crate) reduce_axis: ReduceAxis,
    pub(crate) channels: usize,
    pub(crate) scale: f32,
    pub(crate) partition_bytes: usize,
}

impl Instruction {
    pub fn raw(&self) -> &RawInstruction {
        &self.raw
    }
    pub fn opcode(&self) -> Opcode {
        self.opcode
    }
    pub fn in_dtype(&self) -> Dtype {
        self.in_dtype
    }
    pub fn out_dtype(&self) -> Dtype {
        self.out_dtype
    }
    pub fn reduce_op(&self) -> ReduceOp {
        self.reduce_op
    }
    pub fn reduce_axis(&self) -> ReduceAxis {
        self.reduce_axis
    }
    /// Active partitions (num_active_channels).
    pub fn channels(&self) -> usize {
        self.channels
    }
    pub fn scale(&self) -> f32 {
        self.scale
    }
    /// The SBUF partition size the instruction was validated against.
    pub fn partition_bytes(&self) -> usize {
        self.partition_bytes
    }
}
