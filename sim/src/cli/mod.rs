//! The two line protocols of the `crosslane` command line: eval
//! ([`eval`], eval-protocol.md) and exec, with the instruction's JSON form
//! ([`exec`], instruction.md §5).

pub mod eval;
pub mod exec;
