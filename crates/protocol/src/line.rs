//! Lines at the edge: bytes in, checked text out.
//!
//! Both protocols are lines of text, but what arrives on a pipe is bytes. [`LineReader`] reads
//! them with a bound ([`MAX_LINE`]): a line longer than that is skipped to its end without being
//! kept, and a line that is not UTF-8 is reported as such. Neither is ever echoed back whole:
//! messages quote at most the first [`QUOTE`] characters ([`quote`]).
//!
//! A line ends at `\n` or at `\r` (Gomocup lets an engine end its lines with CR alone); a
//! `\r\n` pair therefore yields one line and one empty line, and both protocols skip empty lines.

use std::fmt;
use std::io::{self, BufRead};

/// The longest line either protocol accepts, in bytes (1 MiB). The longest real line is far
/// shorter: a move list of a 1,000-ply O An Quan game is about 4 KB.
pub const MAX_LINE: usize = 1 << 20;

/// Characters of a line quoted in a message, at most.
pub const QUOTE: usize = 60;

/// A line that could not be read as text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// The line is longer than [`MAX_LINE`] bytes; it was skipped to its end.
    #[error("a line longer than {limit} bytes (it starts `{start}`)")]
    TooLong {
        /// The bound.
        limit: usize,
        /// The line's first characters, quoted safely.
        start: String,
    },
    /// The line is not UTF-8.
    #[error(
        "a line that is not UTF-8 text (byte 0x{byte:02x} at column {column}; it starts `{start}`)"
    )]
    InvalidUtf8 {
        /// The first byte that is not part of valid UTF-8.
        byte: u8,
        /// Its 1-based column.
        column: usize,
        /// The valid text before it, quoted safely.
        start: String,
    },
}

/// The first [`QUOTE`] characters of `text`, control characters shown as `\u{..}`, and `...`
/// when something was cut: safe to put in a message or a log line.
pub fn quote(text: &str) -> String {
    quote_n(text, QUOTE)
}

/// The first `limit` characters of `text`, as [`quote`] shows them.
pub fn quote_n(text: &str, limit: usize) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == limit {
            out.push_str("...");
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// `text` with its control characters shown as `\u{..}` (or `\t`, `\n`): safe to print on a
/// terminal whatever an agent wrote, at any length.
pub fn escape(text: &str) -> std::borrow::Cow<'_, str> {
    if text.chars().any(char::is_control) {
        std::borrow::Cow::Owned(quote_n(text, usize::MAX))
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

fn quote_bytes(bytes: &[u8]) -> String {
    let take = bytes.len().min(4 * QUOTE);
    let text = String::from_utf8_lossy(&bytes[..take]);
    let mut quoted = quote(&text);
    if take < bytes.len() && !quoted.ends_with("...") {
        quoted.push_str("...");
    }
    quoted
}

/// Reads bounded lines from a byte stream.
pub struct LineReader<R> {
    inner: R,
    buf: Vec<u8>,
    /// Whether the rest of an over-long line, already reported, is still to be skipped.
    skipping: bool,
}

impl<R: BufRead> LineReader<R> {
    /// A reader of `inner`.
    pub fn new(inner: R) -> Self {
        LineReader {
            inner,
            buf: Vec::new(),
            skipping: false,
        }
    }

    /// The next line without its terminator: `None` at the end of the input, `Some(Err(..))`
    /// for an I/O error, `Some(Ok(Err(..)))` for a line that is too long or not UTF-8 (the
    /// reader goes on with the line after it). A line is reported too long as soon as it passes
    /// [`MAX_LINE`], not when it ends: a flood without a newline is seen at once.
    pub fn next_line(&mut self) -> Option<io::Result<Result<String, LineError>>> {
        self.buf.clear();
        let mut seen_any = false;
        loop {
            let available = match self.inner.fill_buf() {
                Ok(bytes) => bytes,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => return Some(Err(error)),
            };
            if available.is_empty() {
                self.skipping = false;
                // The end of the input: a last line without terminator still counts.
                if !seen_any {
                    return None;
                }
                break;
            }
            let end = available.iter().position(|&b| b == b'\n' || b == b'\r');
            let chunk = &available[..end.unwrap_or(available.len())];
            if self.skipping {
                // The tail of a line reported too long: dropped up to its end.
                let used = chunk.len() + usize::from(end.is_some());
                self.inner.consume(used);
                if end.is_some() {
                    self.skipping = false;
                }
                continue;
            }
            seen_any = true;
            if self.buf.len() + chunk.len() > MAX_LINE {
                let room = MAX_LINE - self.buf.len();
                let keep = room.min(4 * QUOTE).min(chunk.len());
                self.buf.extend_from_slice(&chunk[..keep]);
                // The line is not kept: what is left of it is skipped on the next call.
                let used = chunk.len() + usize::from(end.is_some());
                self.inner.consume(used);
                self.skipping = end.is_none();
                let start = self.buf.len().min(4 * QUOTE);
                return Some(Ok(Err(LineError::TooLong {
                    limit: MAX_LINE,
                    start: quote_bytes(&self.buf[..start]),
                })));
            }
            self.buf.extend_from_slice(chunk);
            let used = chunk.len() + usize::from(end.is_some());
            self.inner.consume(used);
            if end.is_some() {
                break;
            }
        }
        Some(Ok(match std::str::from_utf8(&self.buf) {
            Ok(text) => Ok(text.to_string()),
            Err(error) => {
                let at = error.valid_up_to();
                Err(LineError::InvalidUtf8 {
                    byte: self.buf[at],
                    column: at + 1,
                    start: quote_bytes(&self.buf[..at]),
                })
            }
        }))
    }
}

impl<T: io::Read> LineReader<io::BufReader<T>> {
    /// Whether a whole line is already read into the buffer, so that [`LineReader::next_line`]
    /// returns it without waiting for input.
    pub fn has_buffered_line(&self) -> bool {
        self.inner
            .buffer()
            .iter()
            .any(|&b| b == b'\n' || b == b'\r')
    }
}

/// A line as a protocol names it in messages: its text, quoted safely.
pub struct Quoted<'a>(pub &'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`", quote(self.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(bytes: &[u8]) -> Vec<Result<String, LineError>> {
        let mut reader = LineReader::new(io::BufReader::with_capacity(7, bytes));
        let mut out = Vec::new();
        while let Some(line) = reader.next_line() {
            out.push(line.unwrap());
        }
        out
    }

    #[test]
    fn lines_end_at_lf_or_cr_and_the_last_needs_no_terminator() {
        let got = lines(b"START 15\r\nTURN 7,7\rBEGIN\nEND");
        let texts: Vec<String> = got.into_iter().map(Result::unwrap).collect();
        assert_eq!(texts, ["START 15", "", "TURN 7,7", "BEGIN", "END"]);
        assert!(lines(b"").is_empty());
        assert_eq!(lines(b"\n").len(), 1);
    }

    #[test]
    fn invalid_utf8_is_reported_with_its_byte_and_column_and_reading_goes_on() {
        let got = lines(b"mo\xffve a1\nmove b2\n");
        assert_eq!(
            got[0],
            Err(LineError::InvalidUtf8 {
                byte: 0xff,
                column: 3,
                start: "mo".into()
            })
        );
        assert_eq!(got[1], Ok("move b2".into()));
    }

    #[test]
    fn an_over_long_line_is_skipped_and_quoted_short() {
        let mut input = vec![b'x'; MAX_LINE + 10];
        input.extend_from_slice(b"\nmove a1\n");
        let got = lines(&input);
        match &got[0] {
            Err(LineError::TooLong { start, .. }) => {
                assert!(start.len() <= QUOTE + 3, "{start}");
                assert!(start.ends_with("..."));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(got[1], Ok("move a1".into()));
        // Exactly the bound is still a line.
        let got = lines(&vec![b'y'; MAX_LINE]);
        assert_eq!(got[0].as_ref().map(String::len), Ok(MAX_LINE));
    }

    #[test]
    fn a_flood_without_a_newline_is_reported_too_long_at_once() {
        // An endless line: the reader must answer, not read for ever.
        let mut reader = LineReader::new(io::BufReader::new(io::repeat(b'x')));
        match reader.next_line() {
            Some(Ok(Err(LineError::TooLong { start, .. }))) => assert!(start.starts_with("xxx")),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn quotes_are_short_and_show_control_characters() {
        assert_eq!(quote("a\tb"), "a\\tb");
        assert_eq!(escape("\u{1b}[2J clear"), "\\u{1b}[2J clear");
        assert_eq!(escape("plain"), "plain");
        assert_eq!(quote(&"z".repeat(100)), format!("{}...", "z".repeat(QUOTE)));
    }
}
