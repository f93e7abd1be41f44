#![allow(unsafe_code, reason = "reads a binary-receive StringInfo")]
//! The buffer a type's binary receive function gets (a `StringInfo` passed as
//! `internal`).

use core::marker::PhantomData;

use pgrx::pg_sys;

use super::entry::{Arg, FromArg};

/// A binary receive function's buffer.
pub struct ReceiveBuffer<'fcx> {
    si: *mut pg_sys::StringInfoData,
    _call: PhantomData<&'fcx [u8]>,
}

impl<'fcx> FromArg<'fcx> for ReceiveBuffer<'fcx> {
    fn from_arg(arg: Arg<'fcx>) -> Self {
        ReceiveBuffer {
            si: arg.strict_datum().cast_mut_ptr(),
            _call: PhantomData,
        }
    }
}

impl<'fcx> ReceiveBuffer<'fcx> {
    /// The unread rest of the buffer, marked as consumed, as a receive function must.
    pub fn take_rest(self) -> &'fcx [u8] {
        // SAFETY: a receive function gets a valid StringInfo as its first argument;
        // `cursor <= len` and `data[..len]` is initialized; the buffer outlives the
        // call.
        unsafe {
            let si = self.si;
            let (cursor, len) = ((*si).cursor as usize, (*si).len as usize);
            let rest =
                core::slice::from_raw_parts(((*si).data as *const u8).add(cursor), len - cursor);
            (*si).cursor = (*si).len;
            rest
        }
    }
}
