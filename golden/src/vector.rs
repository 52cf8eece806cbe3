//! The 512-bit vector and its text form (ops.md §1).

use std::fmt;

/// A 512-bit vector register: byte `i` holds bits `[8i, 8i+8)`, so lane 0 of
/// every form sits in the lowest bytes (little-endian lanes).
/// `repr(transparent)`: a slice of 64·n bytes is a slice of n vectors (the
/// Python package reads numpy arrays in place).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Vec512(pub [u8; 64]);

/// Why a hex field could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HexError {
    /// The text has the wrong number of digits (after an optional `0x`).
    Length { expected: usize, found: usize },
    /// A character that is not a hex digit, and where it stands.
    Digit { position: usize, found: char },
}

impl fmt::Display for HexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HexError::Length { expected, found } => {
                write!(f, "expected {expected} hex digits, found {found}")
            }
            HexError::Digit { position, found } => {
                write!(f, "{found:?} at position {position} is not a hex digit")
            }
        }
    }
}

impl std::error::Error for HexError {}

/// Strip an optional `0x`/`0X` and check the digit count and the digits.
fn hex_digits(text: &str, expected: usize) -> Result<&[u8], HexError> {
    let body = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")).unwrap_or(text);
    let found = body.chars().count();
    if found != expected {
        return Err(HexError::Length { expected, found });
    }
    if let Some((position, found)) = body.chars().enumerate().find(|(_, c)| !c.is_ascii_hexdigit()) {
        return Err(HexError::Digit { position, found });
    }
    Ok(body.as_bytes())
}

fn digit_value(d: u8) -> u8 {
    match d {
        b'0'..=b'9' => d - b'0',
        b'a'..=b'f' => d - b'a' + 10,
        _ => d - b'A' + 10,
    }
}

/// Parse exactly `digits` hex digits (at most 16) into an integer.
pub fn parse_hex_u64(text: &str, digits: usize) -> Result<u64, HexError> {
    debug_assert!(digits <= 16);
    let body = hex_digits(text, digits)?;
    Ok(body.iter().fold(0u64, |acc, &d| (acc << 4) | digit_value(d) as u64))
}

impl Vec512 {
    pub const ZERO: Vec512 = Vec512([0; 64]);
    pub const HEX_DIGITS: usize = 128;

    /// Parse 128 hex digits, most significant first, optional `0x`.
    pub fn from_hex(text: &str) -> Result<Vec512, HexError> {
        let body = hex_digits(text, Self::HEX_DIGITS)?;
        let mut bytes = [0u8; 64];
        for (i, pair) in body.chunks_exact(2).enumerate() {
            bytes[63 - i] = (digit_value(pair[0]) << 4) | digit_value(pair[1]);
        }
        Ok(Vec512(bytes))
    }

    /// 128 lower-case hex digits, most significant first.
    pub fn to_hex(&self) -> String {
        let mut s = String::with_capacity(128);
        for b in self.0.iter().rev() {
            s.push_str(&format!("{b:02x}"));
        }
        s
    }

    /// Lane `l` of width `bits` (8, 16 or 32), zero-extended.
    pub fn lane(&self, bits: u32, l: usize) -> u32 {
        let n = bits as usize / 8;
        let mut v = 0u32;
        for i in (0..n).rev() {
            v = (v << 8) | self.0[l * n + i] as u32;
        }
        v
    }

    /// Set lane `l` of width `bits` to the low `bits` of `value`.
    pub fn set_lane(&mut self, bits: u32, l: usize, value: u32) {
        let n = bits as usize / 8;
        for i in 0..n {
            self.0[l * n + i] = (value >> (8 * i)) as u8;
        }
    }

    /// A vector from lanes listed from lane 0 (fewer lanes leave the rest 0).
    pub fn from_lanes(bits: u32, lanes: &[u32]) -> Vec512 {
        let mut v = Vec512::ZERO;
        for (l, &x) in lanes.iter().enumerate() {
            v.set_lane(bits, l, x);
        }
        v
    }

    /// The eight 64-bit words, word 0 least significant.
    pub fn words(&self) -> [u64; 8] {
        let mut w = [0u64; 8];
        for (i, chunk) in self.0.chunks_exact(8).enumerate() {
            w[i] = u64::from_le_bytes(chunk.try_into().expect("8-byte chunk"));
        }
        w
    }

    pub fn from_words(words: [u64; 8]) -> Vec512 {
        let mut b = [0u8; 64];
        for (i, w) in words.iter().enumerate() {
            b[8 * i..8 * i + 8].copy_from_slice(&w.to_le_bytes());
        }
        Vec512(b)
    }
}

impl fmt::Debug for Vec512 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Vec512({})", self.to_hex())
    }
}

impl fmt::Display for Vec512 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trip_puts_lane_zero_last() {
        let text = format!("{}0102", "0".repeat(124));
        let v = Vec512::from_hex(&text).unwrap();
        assert_eq!(v.lane(16, 0), 0x0102);
        assert_eq!(v.lane(8, 0), 0x02);
        assert_eq!(v.lane(8, 1), 0x01);
        assert_eq!(v.to_hex(), text);
        assert_eq!(Vec512::from_hex(&format!("0x{text}")).unwrap(), v);
        assert_eq!(Vec512::from_hex(&text.to_uppercase()).unwrap(), v);
    }

    #[test]
    fn hex_errors_name_the_problem() {
        assert_eq!(Vec512::from_hex("abc"), Err(HexError::Length { expected: 128, found: 3 }));
        let bad = format!("{}g", "0".repeat(127));
        assert_eq!(Vec512::from_hex(&bad), Err(HexError::Digit { position: 127, found: 'g' }));
        // Multi-byte characters never panic the slicer.
        assert!(Vec512::from_hex(&"é".repeat(128)).is_err());
        assert_eq!(parse_hex_u64("0xff", 2), Ok(0xff));
        assert!(parse_hex_u64("fff", 2).is_err());
    }
}
