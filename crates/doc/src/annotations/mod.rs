//! Notes and groups: what a canvas says about a graph that the graph itself cannot hold.
//!
//! A **note** is a sticky note with Markdown text, a colour and a rectangle. A **group** is a
//! named, coloured frame around nodes and notes; groups nest through `parent`. Neither is part
//! of any spec format, so they live beside the positions: in the layout sidecar for GraphSpec
//! and GRAPH.md (`crate::layout`), in `metadata.web` for Weaveflow. Their shapes and the
//! sidecar versions are documented in docs/notes-and-groups.md.
//!
//! Every change of them is an ordinary edit ([`after_edit`]): the GraphSpec session records
//! the notes and groups before and after as one prim; the other formats' snapshot steps hold
//! them with the layout.
//!
//! One concern a file: the notes and groups themselves (`model`), what they may hold and the
//! refusals that say so (`rules`), what an edit or a paste makes of them (`editing`), and how
//! they are read and written (`sidecar`).

pub mod codes;
mod editing;
mod model;
mod rules;
mod sidecar;

pub(crate) use editing::{after_edit, only_annotations, pasted};
pub use model::{Annotations, Group, Note};
pub use rules::{check_color, NOTE_HEIGHT, NOTE_MIN, NOTE_TEXT_MAX, NOTE_WIDTH, PALETTE};
pub use sidecar::{group_from_value, note_from_value, read_from};
pub(crate) use sidecar::{to_values, GroupOut, NoteOut};
