//! One reader per source. Each takes what [`crate::read`] found in the file (JSON values and
//! where they were) and fills the run model.

pub mod ilmek_checkpoints;
pub mod ilmek_events;
pub mod langsmith;
pub mod otlp;
#[cfg(feature = "sqlite")]
pub mod sqlite;
pub mod trellis_log;
pub mod weaveflow;
