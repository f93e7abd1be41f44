//! `FromSql` and `ToSql` for the `postgres` and `tokio-postgres` crates.
//!
//! ```no_run
//! # fn main() -> Result<(), postgres::Error> {
//! use sroar::{Roaring, RoaringView};
//!
//! let mut client = postgres::Client::connect("host=localhost user=postgres", postgres::NoTls)?;
//! let row = client.query_one("SELECT '{1,-2,3}'::roaring64", &[])?;
//! let set: RoaringView = row.get(0); // borrows the row's bytes, validated
//! assert!(set.contains_signed(-2));
//! let more = Roaring::from_signed([7, 8]).unwrap();
//! client.execute("SELECT rb_cardinality($1)", &[&more])?;
//! # Ok(()) }
//! ```

use std::error::Error;

use bytes::BytesMut;
use postgres_types::{to_sql_checked, FromSql, IsNull, ToSql, Type};

use super::is_set_type;
use crate::{Roaring, RoaringView};

type BoxError = Box<dyn Error + Sync + Send>;

impl<'a> FromSql<'a> for RoaringView<'a> {
    fn from_sql(_ty: &Type, raw: &'a [u8]) -> Result<Self, BoxError> {
        Ok(RoaringView::from_bytes(raw)?)
    }

    fn accepts(ty: &Type) -> bool {
        is_set_type(ty.name())
    }
}

impl<'a> FromSql<'a> for Roaring {
    fn from_sql(_ty: &Type, raw: &'a [u8]) -> Result<Self, BoxError> {
        Ok(Roaring::from_bytes(raw.to_vec())?)
    }

    fn accepts(ty: &Type) -> bool {
        is_set_type(ty.name())
    }
}

impl ToSql for RoaringView<'_> {
    fn to_sql(&self, _ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
        out.extend_from_slice(self.as_bytes());
        Ok(IsNull::No)
    }

    fn accepts(ty: &Type) -> bool {
        is_set_type(ty.name())
    }

    to_sql_checked!();
}

impl ToSql for Roaring {
    fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
        self.view().to_sql(ty, out)
    }

    fn accepts(ty: &Type) -> bool {
        is_set_type(ty.name())
    }

    to_sql_checked!();
}
