//! trellis-spec: the GraphSpec ("graphs as data") model of Trellis.
//!
//! No I/O: this crate takes text and values and returns values, text and diagnostics. It never
//! touches files, the clock or the network. A large document's validation runs its stages side
//! by side on rayon's global pool. See `docs/ARCHITECTURE.md`.

#![forbid(unsafe_code)]

pub mod adjacency;
pub mod analysis;
pub mod builder;
pub mod builtin;
pub mod channel_refs;
pub mod checks;
pub mod config;
pub mod config_check;
pub mod config_schema;
pub mod diagnostic;
pub mod executor;
pub mod fixes;
pub mod generate;
pub mod graph;
pub mod id;
pub mod infer;
pub mod json;
pub mod json_outline;
pub mod line_index;
mod line_points;
pub mod manifest;
pub mod mermaid;
pub mod model;
pub mod pipeline;
pub mod predicate;
pub mod read;
mod reader;
pub mod registry;
pub mod registry_edit;
pub mod runtime_words;
pub mod schema;
pub mod shape_warnings;
pub mod shared_text;
mod span;
pub mod span_locator;
pub mod suggest;
pub mod validate;
mod walk;
pub mod writer;

pub use builder::GraphBuilder;
pub use diagnostic::{Diagnostic, Element, Fix, FixEdit, LineIndex, Names, Severity, Span};
pub use graph::{
    from_spec, from_spec_owned, from_spec_validated, to_spec, Channel, CompiledGraph, Edge, Graph, Guard,
    Node, Reducer, Router,
};
pub use model::{ChannelSpec, Config, EdgeSpec, GraphSpec, Id, NodeSpec, Predicate, ReducerName, END, START};
pub use read::{parse_spec, parse_spec_bytes, parse_spec_shared, Parsed};
pub use registry::{Built, Factory, NodeFn, NodeType, Registry, State, TypeInfo, Update};
pub use shared_text::SharedText;
pub use validate::validate;
pub use writer::{to_canonical_string, to_compact_string};
