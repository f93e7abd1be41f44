//! GIN support. Keys are int8 values, compared with the core btint8cmp (STORAGE
//! int8), and a value's keys scale with its stored size, not its element count:
//!
//! - an **array container** (at most 4096 values, 2 bytes each) gives its elements,
//!   exact keys as intarray's opclass has them;
//! - a **bitmap or run container** (dense: up to 65536 values in 8 kB or a few
//!   runs) gives one lossy *container key*: its last possible value,
//!   `key << 16 | 0xFFFF`.
//!
//! So a posting list of scattered ids keeps one exact key per id, while
//! `rb_from_range(0, 50000000)` costs 763 keys instead of 50 million. A container
//! key is also an ordinary element value; a hit on it is never trusted alone: the
//! row is rechecked. A hit on an element key whose low 16 bits are not all ones can
//! only come from an array container holding that element, so it is exact.
//!
//! | strategy | operator | query keys | candidate when | recheck |
//! |---|---|---|---|---|
//! | 1 | `&&`           | small query containers: elements and container key; large: all keys of the container (partial match) | any key | unless an exact element key hit |
//! | 2 | `@>`           | small: elements and container key; large: container key | every element by its key or its container key | unless every element hit exactly |
//! | 3 | `<@`           | as for `&&`, plus empty rows | any key, or the row is empty | always |
//! | 4 | `=`            | as for `@>` (empty query: empty rows) | as for `@>` | always |
//! | 5 | `@> int8`      | the element and its container key | either | unless the element key hit |
//!
//! A query container is *small* when it holds at most 4096 values: a row's array
//! container can contain all of them only then. GIN passes C pointers (`int32
//! *nkeys`, `bool *recheck`, ...) as `internal`; `crate::pg`'s GIN types read and
//! write them, and the query of strategy 5 is an int8 by value.

use sroar::{Container, RoaringView, ARRAY_MAX};
use sroar_pg_macros::sql_fn;

use crate::errors;
use crate::int8;
use crate::pg::{
    check_for_interrupts, search_mode, stored_view, Call, GinCheck, GinExtra, GinFlags, GinKeys,
    GinOptions, GinPlan, GinQuery, OutArg,
};
use crate::read::Stored;

const OVERLAP: i16 = 1;
const CONTAINS: i16 = 2;
const CONTAINED_BY: i16 = 3;
const EQUAL: i16 = 4;
const CONTAINS_ELEMENT: i16 = 5;

/// The container key of the container holding `v` (a stored u64).
fn container_key(v: u64) -> u64 {
    v | 0xFFFF
}

/// Whether an element key could also be some row's container key.
fn is_container_key(v: u64) -> bool {
    v & 0xFFFF == 0xFFFF
}

/// What one query key stands for.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum Role {
    /// An element of a small query container; `ck` is the index of that
    /// container's key, which may stand in for it (lossily).
    Element,
    /// A container key: the lossy stand-in for a small container's elements, or
    /// the one requirement of a large container (`required`).
    Container,
    /// Every key of one container (partial match from the container's first value).
    Partial,
}

/// The query's keys and what each stands for, built by extractQuery and read back
/// by consistent through GIN's `extra_data`.
#[derive(Clone, Copy)]
#[repr(C)]
struct KeyInfo {
    role: Role,
    /// For a container key: it must be present by itself (a large container of a
    /// `@>` or `=` query, or an element that is its own container key).
    required: bool,
    /// For an element key: the index of its container's key.
    ck: u32,
}

/// The default `element_keys`: every array container gives its elements.
const ELEMENT_KEYS: i32 = ARRAY_MAX as i32;

/// The index keys of a stored value: the elements of its array containers of at
/// most `element_keys` elements, and the container key of each other container.
fn value_keys(view: RoaringView<'_>, element_keys: usize) -> Vec<u64> {
    let mut keys = Vec::new();
    for (i, (key, c)) in view.containers().enumerate() {
        if i % 4096 == 4095 {
            check_for_interrupts();
        }
        match c {
            Container::Array(a) if a.len() <= element_keys => {
                keys.extend(a.iter().map(|low| key << 16 | u64::from(low)))
            }
            _ => keys.push(container_key(key << 16)),
        }
    }
    keys
}

/// A query's keys for `strategy`, with what each stands for.
fn query_keys(view: RoaringView<'_>, strategy: i16) -> (Vec<u64>, Vec<KeyInfo>) {
    let all_required = matches!(strategy, CONTAINS | EQUAL);
    let (mut keys, mut info) = (Vec::new(), Vec::new());
    for (i, (key, c)) in view.containers().enumerate() {
        if i % 4096 == 4095 {
            check_for_interrupts();
        }
        let first = key << 16;
        let ck_value = container_key(first);
        if c.len() > ARRAY_MAX as usize {
            let role = if all_required {
                Role::Container
            } else {
                Role::Partial
            };
            let value = if all_required { ck_value } else { first };
            keys.push(value);
            info.push(KeyInfo {
                role,
                required: all_required,
                ck: 0,
            });
            continue;
        }
        let ck = keys.len() as u32;
        keys.push(ck_value);
        info.push(KeyInfo {
            role: Role::Container,
            required: false,
            ck: 0,
        });
        let values = c.iter().map(|low| first | u64::from(low));
        for v in values {
            if v == ck_value {
                // The element is its own container key: a hit on it is lossy.
                info[ck as usize].required |= all_required;
            } else {
                keys.push(v);
                info.push(KeyInfo {
                    role: Role::Element,
                    required: false,
                    ck,
                });
            }
        }
    }
    (keys, info)
}

/// extractValue(roaring64, internal int32 *nkeys, internal bool **nullFlags)
#[sql_fn]
fn roaring64_gin_extract_value(r: Stored, nkeys: OutArg<i32>, call: Call) -> GinKeys {
    let element_keys = GinOptions::element_keys(call, ELEMENT_KEYS) as usize;
    GinKeys::new(
        value_keys(r.view(), element_keys)
            .into_iter()
            .map(int8::to_i64),
        &nkeys,
    )
}

/// options(internal local_relopts *): `element_keys`, from 0 (one key per
/// container) to 4096 (every array container's elements, the default).
#[sql_fn]
fn roaring64_gin_options(options: GinOptions) {
    options.declare(ELEMENT_KEYS, ELEMENT_KEYS);
}

/// extractQuery(query, internal int32 *nkeys, int2 strategy, internal bool **pmatch,
/// internal Pointer **extra, internal bool **nullFlags, internal int32 *searchMode)
#[sql_fn]
fn roaring64_gin_extract_query(
    query: GinQuery,
    nkeys: OutArg<i32>,
    strategy: i16,
    pmatch: GinFlags,
    extra: GinExtra<KeyInfo>,
    _null_flags: OutArg<()>,
    search: OutArg<i32>,
) -> GinKeys {
    let (keys, info) = if strategy == CONTAINS_ELEMENT {
        let x = int8::to_u64(query.int8());
        let mut keys = vec![x];
        if !is_container_key(x) {
            keys.push(container_key(x));
        }
        (keys, Vec::new())
    } else {
        query_keys(stored_view(query.set().bytes()), strategy)
    };
    let mode = match strategy {
        CONTAINS if keys.is_empty() => search_mode::ALL,
        CONTAINED_BY => search_mode::INCLUDE_EMPTY,
        EQUAL if keys.is_empty() => search_mode::INCLUDE_EMPTY,
        OVERLAP | CONTAINS | EQUAL | CONTAINS_ELEMENT => search_mode::DEFAULT,
        other => errors::invalid_parameter(format!("unknown roaring64 GIN strategy {other}")),
    };
    let out = GinKeys::new(keys.iter().map(|&k| int8::to_i64(k)), &nkeys);
    if !info.is_empty() {
        // Every key's extra data points at the whole plan: consistent reads it from
        // the first one.
        extra.set_plan(&info);
        if info.iter().any(|i| i.role == Role::Partial) {
            let partial: Vec<bool> = info.iter().map(|i| i.role == Role::Partial).collect();
            pmatch.set(&partial);
        }
    }
    search.set(mode);
    out
}

/// comparePartial(int8 partial_key, int8 key, int2 strategy, internal extra): the
/// keys of one container (those sharing the partial key's top 48 bits) match; the
/// scan stops past them.
#[sql_fn]
fn roaring64_gin_compare_partial(partial: i64, key: i64) -> i32 {
    let (p, k) = (int8::to_u64(partial), int8::to_u64(key));
    if k >> 16 == p >> 16 {
        0
    } else if k > p {
        1
    } else {
        -1
    }
}

/// consistent(internal bool check[], int2 strategy, query, int4 nkeys,
/// internal extra, internal bool *recheck, internal queryKeys, internal nullFlags)
#[sql_fn]
fn roaring64_gin_consistent(
    check: GinCheck,
    strategy: i16,
    _query: GinQuery,
    nkeys: i32,
    extra: GinPlan<KeyInfo>,
    recheck: OutArg<bool>,
) -> bool {
    let check = check.flags(nkeys);
    let info = extra.plan(nkeys);
    let (matches, must_recheck) = match strategy {
        CONTAINS_ELEMENT => {
            // check[0]: the element's own key; check[1] (if any): its container's.
            let exact = check.first() == Some(&true) && check.len() == 2;
            (check.iter().any(|&c| c), !exact)
        }
        OVERLAP => {
            let exact = info
                .iter()
                .zip(check)
                .any(|(i, &c)| c && i.role == Role::Element);
            (check.iter().any(|&c| c), !exact)
        }
        CONTAINS | EQUAL => {
            let mut all = true;
            let mut exact = strategy == CONTAINS;
            for (k, &c) in info.iter().zip(check) {
                match k.role {
                    Role::Element => {
                        all &= c || check[k.ck as usize];
                        exact &= c;
                    }
                    Role::Container if k.required => {
                        all &= c;
                        exact = false;
                    }
                    Role::Container | Role::Partial => {}
                }
            }
            (all, !exact)
        }
        CONTAINED_BY => (true, true),
        other => errors::invalid_parameter(format!("unknown roaring64 GIN strategy {other}")),
    };
    recheck.set(must_recheck);
    matches
}
