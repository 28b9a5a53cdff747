//! Conversions between GraphSpec and the other formats, each with a loss report: what the
//! target cannot hold, element by element (formats.md §4.1). A conversion never drops or bends
//! something silently: whatever is not carried over exactly is a [`Loss`].
//!
//! * [`to_graphspec`]: Weaveflow -> GraphSpec.
//! * [`from_graphspec`] / [`from_graphspec_with`]: GraphSpec -> Weaveflow.

mod cel;
mod from_graphspec;
mod graphmd_from_spec;
mod graphmd_to_spec;
mod loss;
mod to_graphspec;

pub use from_graphspec::{from_graphspec, from_graphspec_with, FromGraphSpecOptions};
pub use loss::{codes, Conversion, Loss};
pub use to_graphspec::to_graphspec;

/// GRAPH.md <-> GraphSpec with loss reports (graphmd helper).
pub mod graphmd {
    pub use super::graphmd_from_spec::{from_graphspec, DEFAULT_LOOP_BOUND};
    pub use super::graphmd_to_spec::{codes, to_graphspec};
}
