//! trellis-spec: the GraphSpec ("graphs as data") model of Trellis.
//!
//! Pure: this crate takes text and values and returns values, text and diagnostics. It never
//! touches files, the clock or the network. See `docs/ARCHITECTURE.md`.

pub mod diagnostic;
pub mod json;
pub mod model;
pub mod registry;

pub use diagnostic::{Diagnostic, Element, Severity, Span};
pub use model::{ChannelSpec, EdgeSpec, GraphSpec, NodeSpec, Predicate, ReducerName, END, START};
pub use registry::{Built, Factory, NodeFn, NodeType, Registry, State, TypeInfo, Update};
