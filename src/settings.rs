//! The extension's settings (GUCs), defined and registered in one place.

use pgrx::{GucContext, GucFlags, GucRegistry, GucSetting, PostgresGucEnum};

/// `sroar.output_format`: how `roaring64` values print as text.
#[derive(PostgresGucEnum, Clone, Copy, PartialEq, Eq, Debug)]
pub enum OutputFormat {
    /// `{1,2,3}`, ascending int8 values.
    #[name = c"array"]
    Array,
    /// `\x…`: the hex of the native bytes; compact and exact, for shipping values.
    #[name = c"hex"]
    Hex,
}

pub static OUTPUT_FORMAT: GucSetting<OutputFormat> =
    GucSetting::<OutputFormat>::new(OutputFormat::Array);

/// Registers every setting; called once, when the library is loaded.
pub fn register() {
    GucRegistry::define_enum_guc(
        c"sroar.output_format",
        c"Text form of roaring64 values: array ({1,2,3}) or hex (\\x of the native bytes).",
        c"hex is compact and exact; use it where values travel as text, such as Citus workers shipping aggregate states.",
        &OUTPUT_FORMAT,
        GucContext::Userset,
        GucFlags::default(),
    );
}
