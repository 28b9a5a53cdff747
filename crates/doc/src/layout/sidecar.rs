//! The layout sidecar's first shape (version 1: positions and the viewport), which both ways of
//! reading a sidecar give (`plain_read`, and the general path in `layout.rs`); notes, groups and
//! newer fields are read apart from it.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use crate::edit::{Position, Viewport};

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Sidecar {
    pub(crate) version: u32,
    #[serde(default)]
    pub(crate) positions: IndexMap<String, Position>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) viewport: Option<Viewport>,
}
