//! Type I/O of `roaring64`: text in and out, binary receive and send, and the casts
//! from bytea and int8[] that share the same validation.

use std::ffi::{CStr, CString};

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;
use sroar::{PortableFormat, RoaringView, Writer};
use sroar_pg_macros::sql_fn;

use crate::errors;
use crate::int8;
use crate::pg::{
    check_for_interrupts, palloc_cstring, Bytea, CStringOut, ReceiveBuffer, RoaringOut,
};
use crate::read::Stored;
use crate::settings::{OutputFormat, OUTPUT_FORMAT};
use sroar::text::{self, Parsed, TextError};

/// Native bytes from outside (hex text, binary input, bytea): validated where they
/// are, then copied once into the value.
fn from_native(bytes: &[u8]) -> RoaringOut {
    if let Err(e) = RoaringView::from_bytes(bytes) {
        errors::invalid_binary(e)
    }
    Bytea::write(bytes.len(), |out| out.copy_from_slice(bytes)).into_roaring()
}

/// A set from `roaring64` text input (either form), with its errors: the type's
/// input function, and the many-set functions' text arguments.
pub fn parse_set(s: &str) -> sroar::Roaring {
    match text::parse(s, check_for_interrupts) {
        Ok(Parsed::Values(values)) => {
            sroar::Roaring::from_signed(values).unwrap_or_else(|e| errors::too_large(e.needed))
        }
        Ok(Parsed::Hex(bytes)) => {
            sroar::Roaring::from_bytes(bytes).unwrap_or_else(|e| errors::invalid_binary(e))
        }
        Err(TextError::Syntax { position, what }) => errors::invalid_text(s, position, what),
        Err(TextError::OutOfRange { number }) => errors::int8_out_of_range(&number),
        Err(TextError::Null { element }) => errors::null_element(element),
    }
}

#[sql_fn]
fn roaring64_in(input: &CStr) -> RoaringOut {
    let Ok(s) = input.to_str() else {
        errors::invalid_text("", 1, "input is not valid UTF-8")
    };
    parse_set(s).into()
}

/// Text output fails with 54000 before building text longer than a PostgreSQL value.
#[sql_fn]
fn roaring64_out(r: Stored) -> CString {
    let mut out = Vec::new();
    match OUTPUT_FORMAT.get() {
        OutputFormat::Hex => {
            let needed = 3 + 2 * r.bytes().len() as u64;
            if needed > errors::MAX_VALUE_BYTES as u64 {
                errors::too_large(needed);
            }
            text::write_hex(&mut out, r.bytes())
        }
        OutputFormat::Array => {
            // At least two characters per value ("1,"): refuse what cannot fit at once,
            // and stop when the text built so far passes the limit.
            let at_least = 2 * r.view().len() + 2;
            if at_least > errors::MAX_VALUE_BYTES as u64 {
                errors::too_large(at_least);
            }
            write_array(&mut out, r.view())
        }
    }
    // Neither form can contain a NUL byte.
    CString::new(out).unwrap_or_else(|_| errors::invalid_parameter("roaring64 text contains NUL"))
}

fn write_array(out: &mut Vec<u8>, view: RoaringView<'_>) {
    let mut iter = view.iter();
    let mut batch = [0u64; 1024];
    let mut digits = itoa::Buffer::new();
    out.push(b'{');
    loop {
        let n = iter.next_batch(&mut batch);
        if n == 0 {
            break;
        }
        for &v in &batch[..n] {
            out.extend_from_slice(digits.format(int8::to_i64(v)).as_bytes());
            out.push(b',');
        }
        if out.len() >= errors::MAX_VALUE_BYTES {
            errors::too_large(out.len() as u64 + 1);
        }
        check_for_interrupts();
    }
    if out.len() > 1 {
        out.pop();
    }
    out.push(b'}');
}

/// Bytes in the standard 64-bit portable format, validated and read in one pass.
/// Portable value v is the int8 with the same 64 bits (as pg_roaringbitmap reads
/// it), which the crate's signed reader stores as int8 values are.
fn from_portable(bytes: &[u8]) -> RoaringOut {
    Writer::from_portable(bytes, PortableFormat::Signed64)
        .unwrap_or_else(|e| errors::invalid_binary(e))
        .into()
}

/// Bytes a client sends (binary parameters, COPY … FORMAT binary, the bytea cast):
/// native bytes, or the standard 64-bit portable format, told apart by their first
/// 8 bytes (see FORMAT.md), and validated either way. Bytes that are neither say so,
/// naming both formats.
fn from_client(bytes: &[u8]) -> RoaringOut {
    if sroar::looks_like_portable(bytes) {
        return from_portable(bytes);
    }
    if !bytes.starts_with(&sroar::MAGIC) {
        errors::neither_binary_format(bytes)
    }
    from_native(bytes)
}

#[sql_fn]
fn roaring64_recv(buf: ReceiveBuffer) -> RoaringOut {
    from_client(buf.take_rest())
}

#[sql_fn]
fn rb_from_portable(bytes: &[u8]) -> RoaringOut {
    from_portable(bytes)
}

/// The standard 64-bit portable format, byte-identical to CRoaring's and roaring-rs's
/// output for the same set, written straight into the result value.
#[sql_fn]
fn rb_to_portable(r: Stored) -> Bytea {
    let view = r.view();
    let len = view.portable_len(PortableFormat::Signed64).unwrap_or(0);
    Bytea::write(len, |out| {
        view.write_portable_into(PortableFormat::Signed64, out)
    })
}

/// The standard 32-bit portable format (Java's RoaringBitmap, CRoaring's 32-bit
/// bitmaps, pg_roaringbitmap's roaringbitmap): its values, unsigned 32-bit, as int8.
#[sql_fn]
fn rb_from_portable32(bytes: &[u8]) -> RoaringOut {
    Writer::from_portable(bytes, PortableFormat::Signed32)
        .unwrap_or_else(|e| errors::invalid_binary(e))
        .into()
}

/// A set of elements from 0 to 2^32 - 1 in the standard 32-bit portable format,
/// written straight into the result value; 22003 for any other element.
#[sql_fn]
fn rb_to_portable32(r: Stored) -> Bytea {
    let view = r.view();
    let Some(len) = view.portable_len(PortableFormat::Signed32) else {
        let (min, max) = (view.min(), view.max());
        errors::not_32_bit(min.map_or(0, int8::to_i64), max.map_or(0, int8::to_i64))
    };
    Bytea::write(len, |out| {
        view.write_portable_into(PortableFormat::Signed32, out)
    })
}

#[sql_fn]
fn roaring64_send<'fcx>(r: Stored<'fcx>) -> &'fcx [u8] {
    r.bytes()
}

/// `roaring64_state` text in: base64 of the native bytes (its own output), or any
/// `roaring64` text form, so that a state can be written by hand like a value. The
/// bytes are decoded straight into the value and validated there.
#[sql_fn]
fn roaring64_state_in(input: &CStr) -> RoaringOut {
    let bytes = input.to_bytes();
    let trimmed = bytes.trim_ascii();
    if trimmed.starts_with(b"{") || trimmed.starts_with(b"\\x") {
        return roaring64_in(input);
    }
    let decoded = Bytea::write_prefix(base64::decoded_len_estimate(trimmed.len()), |out| {
        let len = BASE64.decode_slice(trimmed, out)?;
        if let Err(e) = RoaringView::from_bytes(&out[..len]) {
            errors::invalid_binary(e)
        }
        Ok(len)
    });
    decoded
        .unwrap_or_else(|e| {
            let input = String::from_utf8_lossy(bytes);
            match e {
                base64::DecodeSliceError::DecodeError(e) => errors::invalid_state_text(&input, e),
                // The estimate is an upper bound: not reached.
                base64::DecodeSliceError::OutputSliceTooSmall => {
                    errors::invalid_state_text(&input, "decodes to more bytes than estimated")
                }
            }
        })
        .into_roaring()
}

/// `roaring64_state` text out: base64 of the native bytes, 4/3 of their size and
/// independent of `sroar.output_format`, because this text is how Citus ships a
/// partial aggregate state from a worker to the coordinator. Written in place.
#[sql_fn]
fn roaring64_state_out(r: Stored) -> CStringOut {
    let bytes = r.bytes();
    let len = base64::encoded_len(bytes.len(), true).unwrap_or(usize::MAX);
    palloc_cstring(len, |buf| {
        // The buffer has exactly the encoded length, so encoding cannot fail.
        let _ = BASE64.encode_slice(bytes, buf);
    })
}

/// The bytea → roaring64 cast reads what binary input reads.
#[sql_fn]
fn roaring64_from_bytea(bytes: &[u8]) -> RoaringOut {
    from_client(bytes)
}
