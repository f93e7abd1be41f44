//! The text form of a set as sroar_pg prints a `roaring64`: `{3,1,-2}` (signed
//! values, any order, duplicates allowed) or `\x` followed by the hex of the native
//! bytes. The server's input function and the clients read it with the same parser.
//!
//! ```
//! use sroar::{to_stored, Roaring};
//!
//! let set = Roaring::from_text("{3, -1, 3}").unwrap();
//! assert!(set.contains(to_stored(-1)));
//! assert_eq!(set.to_array_text(), "{-1,3}");
//! assert_eq!(Roaring::from_text(&set.to_hex_text()).unwrap(), set);
//! assert!(Roaring::from_text("{1,x}").is_err());
//! ```

use core::fmt;

use crate::{CapacityError, FormatError, Roaring};

/// What is wrong with a text input, and where (1-based character position).
#[derive(Debug, PartialEq, Eq)]
pub enum TextError {
    /// Not the grammar of either form, at `position`.
    Syntax {
        /// 1-based character position.
        position: usize,
        /// What was expected there.
        what: &'static str,
    },
    /// A number outside int8's range, as written.
    OutOfRange {
        /// The number as written.
        number: String,
    },
    /// An unquoted NULL, as in array text: `element` is its 1-based place.
    Null {
        /// 1-based place of the NULL among the elements.
        element: usize,
    },
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TextError::Syntax { position, what } => write!(f, "{what} at character {position}"),
            TextError::OutOfRange { number } => write!(f, "{number} is out of range for int8"),
            TextError::Null { element } => write!(f, "element {element} is NULL"),
        }
    }
}

impl std::error::Error for TextError {}

/// Why [`Roaring::from_text`] refused its input.
#[derive(Debug, PartialEq, Eq)]
pub enum FromTextError {
    /// The text is not either form.
    Text(TextError),
    /// The hex form's bytes are not a valid set.
    Bytes(FormatError),
    /// The set would reach 2^30 bytes.
    Capacity(CapacityError),
}

impl fmt::Display for FromTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FromTextError::Text(e) => e.fmt(f),
            FromTextError::Bytes(e) => e.fmt(f),
            FromTextError::Capacity(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for FromTextError {}

impl Roaring {
    /// A set from either text form (see the module), validated.
    pub fn from_text(text: &str) -> Result<Roaring, FromTextError> {
        match parse(text, || ()).map_err(FromTextError::Text)? {
            Parsed::Values(values) => Roaring::from_signed(values).map_err(FromTextError::Capacity),
            Parsed::Hex(bytes) => Roaring::from_bytes(bytes).map_err(FromTextError::Bytes),
        }
    }

    /// The `\x…` text form: hex of the native bytes.
    pub fn to_hex_text(&self) -> String {
        let mut out = Vec::new();
        write_hex(&mut out, self.as_bytes());
        // Only ASCII was written.
        String::from_utf8(out).unwrap_or_default()
    }

    /// The `{…}` text form: the signed values in ascending order.
    pub fn to_array_text(&self) -> String {
        let mut out = String::with_capacity(2 + 8 * self.len() as usize);
        out.push('{');
        for (i, v) in self.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&crate::to_signed(v).to_string());
        }
        out.push('}');
        out
    }
}

/// The parsed text: int8 values as written (any order, duplicates allowed), or the
/// raw bytes of a hex input.
#[derive(Debug, PartialEq, Eq)]
pub enum Parsed {
    /// The values of the `{…}` form, as written.
    Values(Vec<i64>),
    /// The bytes of the `\x…` form, not yet validated.
    Hex(Vec<u8>),
}

/// Parses `{…}` or `\x…`, allowing whitespace around every token. `tick` is called
/// every 65536 values, so that a caller can stop a long parse.
pub fn parse(input: &str, mut tick: impl FnMut()) -> Result<Parsed, TextError> {
    let bytes = input.as_bytes();
    let mut i = skip_ws(bytes, 0);
    if bytes[i..].starts_with(b"\\x") {
        return parse_hex(bytes, i + 2).map(Parsed::Hex);
    }
    let syntax = |position: usize, what| TextError::Syntax {
        position: position + 1,
        what,
    };
    if bytes.get(i) != Some(&b'{') {
        return Err(syntax(i, "expected \"{\" or \"\\x\""));
    }
    i = skip_ws(bytes, i + 1);
    let mut values = Vec::new();
    if bytes.get(i) == Some(&b'}') {
        i += 1;
    } else {
        loop {
            let start = i;
            if matches!(bytes.get(i), Some(b'-' | b'+')) {
                i += 1;
            }
            let digits = i;
            while bytes.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            if i == digits {
                if i == start && is_null_token(&bytes[i..]) {
                    return Err(TextError::Null {
                        element: values.len() + 1,
                    });
                }
                return Err(syntax(start, "expected an integer"));
            }
            let number = &input[start..i];
            if values.len() % 65536 == 65535 {
                tick();
            }
            match number.parse::<i64>() {
                Ok(v) => values.push(v),
                Err(_) => {
                    return Err(TextError::OutOfRange {
                        number: number.to_owned(),
                    })
                }
            }
            i = skip_ws(bytes, i);
            match bytes.get(i) {
                Some(b',') => i = skip_ws(bytes, i + 1),
                Some(b'}') => {
                    i += 1;
                    break;
                }
                _ => return Err(syntax(i, "expected \",\" or \"}\"")),
            }
        }
    }
    i = skip_ws(bytes, i);
    if i != bytes.len() {
        return Err(syntax(i, "unexpected text after \"}\""));
    }
    Ok(Parsed::Values(values))
}

/// An unquoted NULL (any case) followed by the end of the element, as PostgreSQL's
/// array input reads it: `{1,NULL}` is an array with a NULL, `{NULLS}` is not.
fn is_null_token(rest: &[u8]) -> bool {
    rest.len() >= 4
        && rest[..4].eq_ignore_ascii_case(b"NULL")
        && !rest
            .get(4)
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
}

fn skip_ws(bytes: &[u8], mut i: usize) -> usize {
    while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
        i += 1;
    }
    i
}

fn parse_hex(bytes: &[u8], start: usize) -> Result<Vec<u8>, TextError> {
    let end = bytes.len()
        - bytes
            .iter()
            .rev()
            .take_while(|b| b.is_ascii_whitespace())
            .count();
    let hex = &bytes[start..end.max(start)];
    if !hex.len().is_multiple_of(2) {
        return Err(TextError::Syntax {
            position: end + 1,
            what: "odd number of hex digits",
        });
    }
    let nibble = |pos: usize| -> Result<u8, TextError> {
        let c = hex[pos];
        (c as char)
            .to_digit(16)
            .map(|d| d as u8)
            .ok_or(TextError::Syntax {
                position: start + pos + 1,
                what: "invalid hex digit",
            })
    };
    (0..hex.len() / 2)
        .map(|k| Ok(nibble(2 * k)? << 4 | nibble(2 * k + 1)?))
        .collect()
}

/// Appends `\x` and the lowercase hex of `bytes`.
pub fn write_hex(out: &mut Vec<u8>, bytes: &[u8]) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    out.reserve(2 + 2 * bytes.len());
    out.extend_from_slice(b"\\x");
    for &b in bytes {
        out.push(DIGITS[(b >> 4) as usize]);
        out.push(DIGITS[(b & 15) as usize]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(s: &str) -> Vec<i64> {
        match parse(s, || ()) {
            Ok(Parsed::Values(v)) => v,
            other => panic!("{s:?} gave {other:?}"),
        }
    }

    #[test]
    fn accepts_sets_in_any_order_with_whitespace() {
        assert_eq!(values("{}"), Vec::<i64>::new());
        assert_eq!(values("  { }  "), Vec::<i64>::new());
        assert_eq!(values("{3, 1, 2, 2}"), vec![3, 1, 2, 2]);
        assert_eq!(
            values("{ -9223372036854775808 ,9223372036854775807,+5}"),
            vec![i64::MIN, i64::MAX, 5]
        );
    }

    #[test]
    fn reports_positions() {
        let err = |s: &str| parse(s, || ()).unwrap_err();
        assert_eq!(
            err(""),
            TextError::Syntax {
                position: 1,
                what: "expected \"{\" or \"\\x\""
            }
        );
        assert_eq!(
            err("{1,}"),
            TextError::Syntax {
                position: 4,
                what: "expected an integer"
            }
        );
        assert_eq!(
            err("{1 2}"),
            TextError::Syntax {
                position: 4,
                what: "expected \",\" or \"}\""
            }
        );
        assert_eq!(
            err("{1"),
            TextError::Syntax {
                position: 3,
                what: "expected \",\" or \"}\""
            }
        );
        assert_eq!(
            err("{1} x"),
            TextError::Syntax {
                position: 5,
                what: "unexpected text after \"}\""
            }
        );
        assert_eq!(
            err("{-}"),
            TextError::Syntax {
                position: 2,
                what: "expected an integer"
            }
        );
        assert_eq!(
            err("{9223372036854775808}"),
            TextError::OutOfRange {
                number: "9223372036854775808".into()
            }
        );
    }

    #[test]
    fn an_unquoted_null_is_a_null_element() {
        let err = |s: &str| parse(s, || ()).unwrap_err();
        assert_eq!(err("{NULL}"), TextError::Null { element: 1 });
        assert_eq!(err("{1, null ,3}"), TextError::Null { element: 2 });
        assert_eq!(err("{1,2,NuLl}"), TextError::Null { element: 3 });
        // Not a NULL: a longer word, or a sign before it.
        for s in ["{NULLS}", "{NULL1}", "{-NULL}", "{NUL}"] {
            assert!(matches!(err(s), TextError::Syntax { .. }), "{s}");
        }
    }

    #[test]
    fn hex_round_trips() {
        let mut out = Vec::new();
        write_hex(&mut out, &[0, 0xab, 0x7f]);
        assert_eq!(out, b"\\x00ab7f");
        assert_eq!(
            parse("\\x00AB7f", || ()).unwrap(),
            Parsed::Hex(vec![0, 0xab, 0x7f])
        );
        assert!(matches!(
            parse("\\x0", || ()),
            Err(TextError::Syntax {
                what: "odd number of hex digits",
                ..
            })
        ));
        assert!(matches!(
            parse("\\x0g", || ()),
            Err(TextError::Syntax {
                position: 4,
                what: "invalid hex digit"
            })
        ));
    }
}
