//! Helpers shared by the tests that run the built `crosslane` binary.
// Each test crate that includes this module uses only some of it.
#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// `../shared/spec/examples`, beside the checkout.
pub fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/spec/examples")
}

/// The checkout's root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Run `crosslane ARGS` with `input` on stdin: (exit code, stdout, stderr).
pub fn run(args: &[&str], input: &[u8]) -> (i32, String, String) {
    run_with_env(args, input, &[])
}

/// [`run`] with extra environment variables.
pub fn run_with_env(args: &[&str], input: &[u8], env: &[(&str, &str)]) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_crosslane"))
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn crosslane");
    child.stdin.take().expect("stdin").write_all(input).expect("write stdin");
    let out = child.wait_with_output().expect("wait for crosslane");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[path = "../../../testdata/tool_present.rs"]
mod tool;
#[allow(unused_imports)]
pub use tool::tool_present;

/// Run `crosslane ARGS` on `input` (written from a thread), read its first
/// line of output, then close stdout as `| head -1` does: (exit code, the
/// line, stderr).
pub fn run_reading_one_line(args: &[&str], input: Vec<u8>) -> (i32, String, String) {
    use std::io::{BufRead, Read};
    let mut child = Command::new(env!("CARGO_BIN_EXE_crosslane"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn crosslane");
    let mut stdin = child.stdin.take().expect("stdin");
    // The command may stop reading once its reader has gone: a write that
    // fails then is expected.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("read a line");
    // The reader (and with it stdout) is dropped here.
    let mut err = String::new();
    child.stderr.take().expect("stderr").read_to_string(&mut err).expect("read stderr");
    let status = child.wait().expect("wait for crosslane");
    writer.join().expect("the input writer");
    (status.code().unwrap_or(-1), line, err)
}
