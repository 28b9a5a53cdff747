//! trellis-runs: runs of a graph as data, beside the graph.
//!
//! Run records of every source (Trellis's own run log, Ilmek's events and checkpoints,
//! Weaveflow's run inspection, OpenTelemetry GenAI spans, LangSmith runs) are read into one
//! model: a run and its steps in order ([`model`]). From that model: the state of every channel
//! after any step, rebuilt with the graph's reducers where a source records only changes
//! ([`state`]); the run's path on a graph ([`overlay`]); whether it ran the open graph
//! ([`identity`]); two runs compared ([`compare`]); figures of one or many runs ([`summary`]).
//! The simulator writes the same model ([`simulate`], [`log`]).
//!
//! Pure: text and bytes in, model and diagnostics out. The only file access is [`file::open`]
//! (reading a record by its path, an SQLite database read-only), shared by the command line and
//! the app. Depends on trellis-spec for node ids, reducers and the executor, never on the app.

#![forbid(unsafe_code)]

pub mod codes;
pub mod compare;
mod fields;
pub mod file;
pub mod generate;
pub mod graph;
pub mod identity;
pub mod json_text;
pub mod log;
pub mod model;
pub mod overlay;
pub mod read;
pub mod readers;
pub mod simulate;
pub mod state;
pub mod summary;
pub mod time;

pub use graph::{GraphShape, Reducers};
pub use model::{ReadRun, Run, RunOutcome, RunSource, Step, StepKind, StepStatus};
pub use read::{read_bytes, read_text, ReadOptions};
