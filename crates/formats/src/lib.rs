//! trellis-formats: Weaveflow Graph Definitions and GRAPH.md. Pure: no I/O.

#![forbid(unsafe_code)]

pub mod any;
pub mod convert;
pub mod detect;
pub mod graphmd;
pub mod subgraph;
pub mod weaveflow;
