//! Weaveflow Graph Definitions (formats.md §2): read strictly, validated with the runtime's own
//! rules, written back without damage.
//!
//! * [`parse`] / [`read_value`]: text or value -> [`WeaveflowDoc`] + diagnostics.
//! * [`validate`] / [`check_text`]: every rule of §2.4, collected.
//! * [`to_string`]: the writer (2-space indent, key order kept, `<>&` not escaped).
//! * [`WeaveflowDoc`]: the raw value beside the typed [`GraphDefinition`]; edit through
//!   [`WeaveflowDoc::edit`] / [`WeaveflowDoc::set_definition`] to keep the file's key order.
//! * [`transfer`]: the Workbench's export bundle and the server's upload envelopes, opened as
//!   the definition they carry, the rest of the file kept.
//! * [`generation`]: which of the definition's generations a document is (two say "1.0").

mod bindings;
pub mod builtin;
pub mod codes;
mod conditions;
mod doc;
pub mod generation;
pub mod model;
pub mod policy;
mod read;
mod shape;
mod topology;
pub mod transfer;
mod validate;
mod write;

pub use bindings::{path_problem, reducer_ok};
pub use doc::WeaveflowDoc;
pub use model::*;
pub use read::{parse, read_value, Parsed};
pub use validate::{check_text, fill_spans, validate, ValidateOptions, DEFAULT_VERSION};
pub use write::{to_string, value_to_string};
