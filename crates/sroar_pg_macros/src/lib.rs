//! `#[sql_fn]`: the one way sroar_pg writes a SQL function's C entry point.
//!
//! ```ignore
//! #[sql_fn]
//! fn rb_and(a: Stored, b: Stored) -> RoaringOut {
//!     read::and(&a, &b)
//! }
//! ```
//! keeps the function as written and adds the version-1 C function
//! `rb_and_wrapper` (the symbol `sql/sroar_pg.sql` names) and its info record
//! `pg_finfo_rb_and_wrapper`. The entry point reads argument `i` of the SQL call
//! into the `i`-th parameter through `pg::FromArg`, calls the function, and hands
//! its result to `pg::IntoRet`. A parameter of type `Call` is not a SQL argument:
//! it receives the call itself (the aggregate context, a set-returning protocol).
//!
//! Positions and lifetimes are generated here, never written by hand, so the only
//! thing a function's author keeps in step is its Rust signature with its SQL
//! declaration (as with pgrx's `#[pg_extern(sql = false)]`). Everything the
//! generated code calls lives in the crate's `pg` module, the one floor of the
//! extension that may use `unsafe`.

use proc_macro::TokenStream;
use quote::{format_ident, quote};
use syn::{parse_macro_input, FnArg, ItemFn, Pat, Type};

/// See the crate's documentation.
#[proc_macro_attribute]
pub fn sql_fn(attr: TokenStream, item: TokenStream) -> TokenStream {
    if !attr.is_empty() {
        return syn::Error::new(
            proc_macro2::Span::call_site(),
            "#[sql_fn] takes no arguments",
        )
        .to_compile_error()
        .into();
    }
    let func = parse_macro_input!(item as ItemFn);
    let name = &func.sig.ident;
    let wrapper = format_ident!("{}_wrapper", name);
    let finfo = format_ident!("pg_finfo_{}_wrapper", name);

    let mut position = 0usize;
    let mut reads = Vec::new();
    let mut passed = Vec::new();
    for (n, input) in func.sig.inputs.iter().enumerate() {
        let FnArg::Typed(arg) = input else {
            return syn::Error::new_spanned(input, "#[sql_fn] functions take no self")
                .to_compile_error()
                .into();
        };
        if !matches!(*arg.pat, Pat::Ident(_) | Pat::Wild(_)) {
            return syn::Error::new_spanned(&arg.pat, "#[sql_fn] parameters are plain names")
                .to_compile_error()
                .into();
        }
        let local = format_ident!("__arg{}", n);
        if is_call(&arg.ty) {
            reads.push(quote! { let #local = __call; });
        } else {
            let i = position;
            position += 1;
            reads.push(quote! {
                // SAFETY: argument #i of the SQL declaration has the type of this
                // parameter (the contract of #[sql_fn]), and `__call` is this call's.
                let #local = crate::pg::FromArg::from_arg(unsafe { crate::pg::Arg::new(__call, #i) });
            });
        }
        passed.push(local);
    }

    let expanded = quote! {
        #func

        #[doc(hidden)]
        #[allow(unsafe_code, reason = "a C entry point, whose symbol PostgreSQL looks up")]
        #[unsafe(no_mangle)]
        pub extern "C" fn #finfo() -> &'static crate::pg::FinfoRecord {
            &crate::pg::FINFO_V1
        }

        #[doc(hidden)]
        #[allow(unsafe_code, reason = "a C entry point, whose symbol PostgreSQL looks up")]
        #[::pgrx::pg_guard]
        #[unsafe(no_mangle)]
        pub unsafe extern "C-unwind" fn #wrapper(
            fcinfo: ::pgrx::pg_sys::FunctionCallInfo,
        ) -> ::pgrx::pg_sys::Datum {
            // SAFETY: PostgreSQL's function manager calls this with the current call's
            // fcinfo, valid for the whole call.
            let __call = unsafe { crate::pg::Call::new(fcinfo) };
            #(#reads)*
            let __result = #name(#(#passed),*);
            __call.finish(crate::pg::IntoRet::into_ret(__result, __call))
        }
    };
    expanded.into()
}

/// Whether a parameter's type is `Call` (or a path ending in it, with or without a
/// lifetime): the call itself, not a SQL argument.
fn is_call(ty: &Type) -> bool {
    match ty {
        Type::Path(p) => p.path.segments.last().is_some_and(|s| s.ident == "Call"),
        _ => false,
    }
}
