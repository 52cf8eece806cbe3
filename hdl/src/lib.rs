//! crosslane-hdl: the CrossLaneReduce unit in rust-hdl 0.46.
//!
//! [`unit::CrosslaneReduce`] is the top (emitted as module `top` by
//! rust-hdl, wrapped as `crosslane_reduce` by the generator); its op decoder
//! is [`decode::OpDecode`]. Op codes come from `crosslane_golden::ops`, the
//! one table every crate shares.

pub mod decode;
pub mod unit;

pub use unit::{CrosslaneReduce, LATENCY};
