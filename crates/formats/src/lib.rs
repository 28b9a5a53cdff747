//! trellis-formats: Weaveflow Graph Definitions and GRAPH.md. Pure: no I/O.

pub mod weaveflow;
pub mod graphmd;
pub mod detect;
pub mod convert;
