//! crosslane-hdl: the CrossLaneReduce unit in rust-hdl 0.46.
//!
//! [`unit::CrosslaneReduce`] is the top (rust-hdl emits it as module `top`;
//! the generator's post-pass names it `crosslane_reduce`); its op decoder
//! is [`decode::OpDecode`]. Op codes come from `crosslane_golden::ops`, the
//! one table every crate shares.

pub mod decode;
pub mod unit;

pub use unit::{CrosslaneReduce, LATENCY};
