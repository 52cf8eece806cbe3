//! The two line protocols of the `crosslane` command line: eval
//! ([`eval`], eval-protocol.md) and exec, with the instruction's JSON form
//! ([`exec`], instruction.md §5).

pub mod eval;
pub mod exec;

/// An input line as read: its text (without the line end), or why it has
/// none (its bytes are not UTF-8).
pub type Line = Result<String, String>;

/// The lines of `input` as they arrive, each as soon as it is complete: a
/// line that is not UTF-8 is an `Err` naming the first bad byte, and the
/// lines after it still come (the protocols answer it with an error line
/// and go on). `\n` and `\r\n` end a line, as `str::lines` has it.
pub fn read_lines<R: std::io::BufRead>(mut input: R) -> impl Iterator<Item = std::io::Result<Line>> {
    std::iter::from_fn(move || {
        let mut buf = Vec::new();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) => None,
            Ok(_) => {
                if buf.last() == Some(&b'\n') {
                    buf.pop();
                    if buf.last() == Some(&b'\r') {
                        buf.pop();
                    }
                }
                Some(Ok(String::from_utf8(buf)
                    .map_err(|e| format!("not UTF-8 (byte {} of the line)", e.utf8_error().valid_up_to() + 1))))
            }
            Err(e) => Some(Err(e)),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_that_is_not_utf8_is_named_and_the_rest_still_come() {
        let input: &[u8] = b"one\r\nt\xffo\nthree";
        let lines: Vec<Line> = read_lines(input).map(|l| l.unwrap()).collect();
        assert_eq!(lines, vec![Ok("one".into()), Err("not UTF-8 (byte 2 of the line)".into()), Ok("three".into())]);
        assert_eq!(read_lines(&b""[..]).count(), 0);
        assert_eq!(read_lines(&b"\n"[..]).map(|l| l.unwrap()).collect::<Vec<_>>(), vec![Ok(String::new())]);
    }
}
