//! `sqlx::Type`, `Encode` and `Decode` for PostgreSQL.
//!
//! sqlx reads results in binary, except for queries without parameters sent as plain
//! text (`raw_sql`): [`Roaring`] reads either form, [`RoaringView`], which borrows the
//! bytes, the binary one only.
//!
//! ```no_run
//! # async fn run(pool: sqlx::PgPool) -> Result<(), sqlx::Error> {
//! use sroar::{Roaring, RoaringView};
//!
//! let row: (Roaring,) = sqlx::query_as("SELECT '{1,-2,3}'::roaring64").fetch_one(&pool).await?;
//! assert!(row.0.view().contains_signed(-2));
//! let n: i64 = sqlx::query_scalar("SELECT rb_cardinality($1)")
//!     .bind(Roaring::from_signed([7, 8]).unwrap())
//!     .fetch_one(&pool)
//!     .await?;
//! # Ok(()) }
//! ```

use sqlx::encode::IsNull;
use sqlx::error::BoxDynError;
use sqlx::postgres::{PgArgumentBuffer, PgTypeInfo, PgValueFormat, PgValueRef, Postgres};
use sqlx::{Decode, Encode, Type, TypeInfo as _};

use super::is_set_type;
use crate::{Roaring, RoaringView};

impl Type<Postgres> for Roaring {
    fn type_info() -> PgTypeInfo {
        PgTypeInfo::with_name("roaring64")
    }

    fn compatible(ty: &PgTypeInfo) -> bool {
        is_set_type(ty.name())
    }
}

impl Type<Postgres> for RoaringView<'_> {
    fn type_info() -> PgTypeInfo {
        PgTypeInfo::with_name("roaring64")
    }

    fn compatible(ty: &PgTypeInfo) -> bool {
        is_set_type(ty.name())
    }
}

impl<'r> Decode<'r, Postgres> for RoaringView<'r> {
    fn decode(value: PgValueRef<'r>) -> Result<Self, BoxDynError> {
        if value.format() == PgValueFormat::Text {
            return Err(
                "a RoaringView borrows binary results; read text results as Roaring".into(),
            );
        }
        Ok(RoaringView::from_bytes(value.as_bytes()?)?)
    }
}

impl<'r> Decode<'r, Postgres> for Roaring {
    fn decode(value: PgValueRef<'r>) -> Result<Self, BoxDynError> {
        match value.format() {
            PgValueFormat::Binary => Ok(Roaring::from_bytes(value.as_bytes()?.to_vec())?),
            PgValueFormat::Text => Ok(Roaring::from_text(value.as_str()?)?),
        }
    }
}

impl Encode<'_, Postgres> for RoaringView<'_> {
    fn encode_by_ref(&self, buf: &mut PgArgumentBuffer) -> Result<IsNull, BoxDynError> {
        buf.extend_from_slice(self.as_bytes());
        Ok(IsNull::No)
    }

    fn size_hint(&self) -> usize {
        self.as_bytes().len()
    }
}

impl Encode<'_, Postgres> for Roaring {
    fn encode_by_ref(&self, buf: &mut PgArgumentBuffer) -> Result<IsNull, BoxDynError> {
        buf.extend_from_slice(self.as_bytes());
        Ok(IsNull::No)
    }

    fn size_hint(&self) -> usize {
        self.as_bytes().len()
    }
}
