//! A hook that long loops call now and then, so that an embedding program can stop
//! them: the database layer installs PostgreSQL's interrupt check, which ends a
//! cancelled statement by unwinding out of the loop. Without a hook it costs a load.

use std::sync::OnceLock;

static HOOK: OnceLock<fn()> = OnceLock::new();

/// Installs `hook` (once per process; later calls are ignored). Writers, validation
/// and accumulators call it every few thousand containers. It may panic to abandon
/// the operation: nothing is left behind but the abandoned result.
pub fn set_interrupt_hook(hook: fn()) {
    let _ = HOOK.set(hook);
}

/// Calls the hook, if one is installed.
#[inline]
pub(crate) fn check() {
    if let Some(hook) = HOOK.get() {
        hook();
    }
}

/// Checks for an interrupt once `unchecked` steps (containers, keys), `n` more
/// now, reach 4096: for loops whose steps come in uneven numbers.
#[inline]
pub(crate) fn check_every_4096(unchecked: &mut usize, n: usize) {
    *unchecked += n;
    if *unchecked >= 4096 {
        check();
        *unchecked = 0;
    }
}
