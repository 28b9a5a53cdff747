//! One module per `trellis` subcommand. Each has an `Args` (clap) and a `run(Args) -> Exit`.

pub mod convert;
pub mod diff;
pub mod fmt;
pub mod git_setup;
pub mod merge;
pub mod mermaid;
pub mod paths;
pub mod registry;
pub mod registry_infer;
pub mod runs;
mod runs_graph;
mod runs_print;
pub mod schema;
pub mod simulate;
pub mod validate;
