//! crosslane-golden: the bit-exact reference model of the CrossLaneReduce
//! primitives (`../shared/spec/ops.md`).
//!
//! Contract: every function here is pure, total and panic-free on any input;
//! the hardware (`crosslane-hdl`) and every simulator run by `crosslane-sim`
//! are judged against it bit for bit. [`ops`] holds the one table of ops and
//! the op-select codes every crate shares; [`reduce`] gives them meaning;
//! [`instruction`] models the 64-byte CrossLaneReduce instruction over an SBUF;
//! [`config`] names the hardware's pipeline configurations and latencies.
#![forbid(unsafe_code)]

pub mod campaign;
pub mod config;
pub mod coverage;
pub mod instruction;
pub mod naive;
pub mod ops;
pub mod reduce;
pub mod vector;

pub use campaign::{Case, Observed, SplitMix64};
pub use config::{Config, LATENCY, LEVELS};
pub use ops::{Family, Fold, Form, Op, BASE_OPS, OP_COUNT, OP_FIELDS, OP_SELECT_BITS};
pub use reduce::{eval_batch, eval_batch_into, BatchLengthError, BatchOut, Outcome};
pub use vector::{parse_hex_u64, HexError, Vec512};

impl Outcome {
    /// The result as hex of exactly the op's result width.
    pub fn result_hex(&self, op: Op) -> String {
        format!("{:0width$x}", self.value, width = op.result_digits())
    }

    /// The rb* lane mask as hex of lanes/4 digits.
    pub fn mask_hex(&self, op: Op) -> Option<String> {
        self.mask.map(|m| format!("{:0width$x}", m, width = op.lanes() / 4))
    }
}
