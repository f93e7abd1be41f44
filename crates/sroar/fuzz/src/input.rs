//! The layout of a `view_ops` input.
//!
//! ```text
//! byte 0           bit 0 set: three buffers, else two
//! bytes 1..33      four u64 LE parameters (probes, ranges, shifts; missing bytes are 0)
//! then             one u32 LE length per buffer but the last (clamped to what is left)
//! then             the buffers, back to back; the last one takes the rest
//! ```
//!
//! Every byte string is some input: a short input gives empty buffers, which fail
//! validation, and nothing else.

/// Bytes before the length fields: the part count and the parameters.
pub const HEAD_LEN: usize = 1 + 8 * PARAMS;
/// Number of `u64` parameters.
pub const PARAMS: usize = 4;

/// One input, split.
#[derive(Clone, Debug)]
pub struct Input<'a> {
    /// Parameters for probes, ranges and shifts.
    pub params: [u64; PARAMS],
    /// Two or three candidate buffers.
    pub parts: Vec<&'a [u8]>,
}

impl<'a> Input<'a> {
    /// Splits `data` (see the module documentation).
    pub fn split(data: &'a [u8]) -> Self {
        let count = if data.first().is_some_and(|b| b & 1 == 1) {
            3
        } else {
            2
        };
        let mut params = [0u64; PARAMS];
        for (i, p) in params.iter_mut().enumerate() {
            let mut b = [0u8; 8];
            let from = (1 + 8 * i).min(data.len());
            let to = (9 + 8 * i).min(data.len());
            b[..to - from].copy_from_slice(&data[from..to]);
            *p = u64::from_le_bytes(b);
        }
        let mut rest = data.get(HEAD_LEN..).unwrap_or(&[]);
        let mut lens = Vec::with_capacity(count - 1);
        for _ in 1..count {
            let mut b = [0u8; 4];
            let n = rest.len().min(4);
            b[..n].copy_from_slice(&rest[..n]);
            rest = &rest[n..];
            lens.push(u32::from_le_bytes(b) as usize);
        }
        let mut parts = Vec::with_capacity(count);
        for len in lens {
            let (part, tail) = rest.split_at(len.min(rest.len()));
            parts.push(part);
            rest = tail;
        }
        parts.push(rest);
        Input { params, parts }
    }
}

/// The input that [`Input::split`] splits into `params` and `parts` (two or three).
pub fn encode(params: [u64; PARAMS], parts: &[&[u8]]) -> Vec<u8> {
    assert!(matches!(parts.len(), 2 | 3), "two or three parts");
    let mut out = vec![u8::from(parts.len() == 3)];
    for p in params {
        out.extend_from_slice(&p.to_le_bytes());
    }
    for part in &parts[..parts.len() - 1] {
        out.extend_from_slice(&(part.len() as u32).to_le_bytes());
    }
    for part in parts {
        out.extend_from_slice(part);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_then_split() {
        let params = [1, 2, u64::MAX, 4];
        for parts in [&[&b"ab"[..], b"", b"cde"][..], &[b"", b"xyz"]] {
            let data = encode(params, parts);
            let input = Input::split(&data);
            assert_eq!(input.params, params);
            assert_eq!(input.parts, parts);
        }
        let short = Input::split(&[1, 7]);
        assert_eq!(short.params, [7, 0, 0, 0]);
        assert_eq!(short.parts, [&[][..], &[], &[]]);
    }
}
