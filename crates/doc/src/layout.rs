//! Node positions, the viewport, notes and groups, kept beside a GraphSpec (or GRAPH.md) in a
//! sidecar file (`support.json` -> `support.layout.json`), because the spec itself must carry
//! only what the runtime reads (a position in the spec would not survive `to_spec`).
//!
//! Versions (docs/notes-and-groups.md): 1 holds `positions` and `viewport`; 2 adds `notes` and
//! `groups`. A sidecar without notes and groups is still written as version 1, byte for byte
//! as before, so older Trellis versions keep reading it. Fields this version does not know
//! are kept and written back.

use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use trellis_spec::{json, Diagnostic};
use ts_rs::TS;

use serde_json::{Map, Value};

use crate::annotations::{self, Annotations, Group, GroupOut, Note, NoteOut};
use crate::edit::{Position, Viewport};

mod plain_read;
mod sidecar;

use sidecar::Sidecar;

/// Diagnostic codes of this module.
pub mod codes {
    /// The layout sidecar could not be read (bad JSON or shape); positions are recomputed.
    pub const BAD_LAYOUT: &str = "doc/bad-layout";
}

/// The version written in a sidecar with positions only (the first format).
pub const LAYOUT_VERSION: u32 = 1;
/// The version written when the sidecar holds notes or groups; the newest this Trellis reads
/// completely.
pub const ANNOTATED_VERSION: u32 = 2;

/// Positions by node id, the viewport, notes and groups.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Layout {
    pub positions: IndexMap<String, Position>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub viewport: Option<Viewport>,
    #[serde(default)]
    pub notes: Vec<Note>,
    #[serde(default)]
    pub groups: Vec<Group>,
    /// Top-level sidecar fields this Trellis does not know: written back as they were.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    #[ts(skip)]
    pub extra: Map<String, Value>,
    /// The version the sidecar was read with (0: none read); a newer one is written back as is.
    #[serde(skip)]
    #[ts(skip)]
    pub version: u32,
}

/// What [`Layout::to_text`] writes: the [`Sidecar`] shape (same fields, same order), borrowed,
/// then notes, groups and the fields kept from a newer version.
#[derive(Serialize)]
struct SidecarOut<'a> {
    version: u32,
    positions: PositionsOut<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    viewport: Option<Viewport>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    notes: Vec<NoteOut<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    groups: Vec<GroupOut<'a>>,
    #[serde(flatten)]
    extra: &'a Map<String, Value>,
}

/// Positions in the order given, written as a JSON object.
struct PositionsOut<'a>(&'a IndexMap<&'a str, &'a Position>);

impl Serialize for PositionsOut<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter())
    }
}

/// `dir/name.json` -> `dir/name.layout.json` (any extension is replaced).
pub fn sidecar_path(spec_path: &Path) -> PathBuf {
    let stem = spec_path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    spec_path.with_file_name(format!("{stem}.layout.json"))
}

fn bad(message: impl Into<String>) -> Diagnostic {
    Diagnostic::warning(codes::BAD_LAYOUT, message)
}

impl Layout {
    /// Reads a sidecar. Positions that are not finite numbers are refused with the rest.
    pub fn parse(text: &str) -> Result<Layout, Diagnostic> {
        Layout::parse_with_warnings(text).map(|(l, _)| l)
    }

    /// Reads a sidecar, and what was repaired in its notes and groups (ids twice, a parent
    /// that does not exist, ...): those parts are dropped with a warning, the rest is used.
    pub fn parse_with_warnings(text: &str) -> Result<(Layout, Vec<String>), Diagnostic> {
        let (sidecar, extra, mut annotations) = match plain_read::plain(text) {
            Some(s) => (s, Map::new(), Annotations::default()),
            None => {
                let Value::Object(mut obj) = json::parse(text)? else {
                    return Err(bad("the layout file is not a layout: it is not a JSON object"));
                };
                let annotations = annotations::read_from(&mut obj)
                    .map_err(|e| bad(format!("the layout file is not a layout: {e}")))?;
                let mut known = Map::new();
                let mut extra = Map::new();
                for (k, v) in obj {
                    if matches!(k.as_str(), "version" | "positions" | "viewport") {
                        known.insert(k, v);
                    } else {
                        extra.insert(k, v);
                    }
                }
                let sidecar: Sidecar = serde_json::from_value(Value::Object(known))
                    .map_err(|e| bad(format!("the layout file is not a layout: {e}")))?;
                (sidecar, extra, annotations)
            }
        };
        if sidecar.version == 0 {
            return Err(bad("the layout file has version 0; versions start at 1"));
        }
        if let Some((id, _)) = sidecar.positions.iter().find(|(_, p)| !p.x.is_finite() || !p.y.is_finite()) {
            return Err(bad(format!("the layout of node \"{id}\" is not a finite position")));
        }
        let mut warnings = annotations.repair();
        if sidecar.version > ANNOTATED_VERSION {
            warnings.insert(
                0,
                format!(
                    "the layout file has version {}, newer than this Trellis ({ANNOTATED_VERSION}); what it does not know is kept as it is",
                    sidecar.version
                ),
            );
        }
        let layout = Layout {
            positions: sidecar.positions,
            viewport: sidecar.viewport,
            notes: annotations.notes,
            groups: annotations.groups,
            extra,
            version: sidecar.version,
        };
        Ok((layout, warnings))
    }

    /// The notes and groups.
    pub fn annotations(&self) -> Annotations {
        Annotations { notes: self.notes.clone(), groups: self.groups.clone() }
    }
    pub(crate) fn set_annotations(&mut self, a: Annotations) {
        self.notes = a.notes;
        self.groups = a.groups;
    }
    pub fn group(&self, id: &str) -> Option<&Group> {
        self.groups.iter().find(|g| g.id == id)
    }
    pub fn has_annotations(&self) -> bool {
        !self.notes.is_empty() || !self.groups.is_empty()
    }

    /// The sidecar text: 2-space indent, final newline. Only positions of `node_ids` are
    /// written, in that order, so a sidecar never keeps positions of deleted nodes.
    pub fn to_text<'a>(&self, node_ids: impl IntoIterator<Item = &'a str>) -> String {
        // Written straight from the ids and this layout: no map of copied ids in between (a
        // save of a 100,000-node document writes this too).
        // A map still, so an id listed twice is written once, as before.
        let ids: Vec<&str> = node_ids.into_iter().collect();
        let positions: IndexMap<&str, &Position> =
            ids.iter().filter_map(|id| self.positions.get(*id).map(|p| (*id, p))).collect();
        let grouped: std::collections::HashSet<&str> =
            if self.groups.is_empty() { Default::default() } else { ids.iter().copied().collect() };
        let needed = if self.has_annotations() { ANNOTATED_VERSION } else { LAYOUT_VERSION };
        let sidecar = SidecarOut {
            version: needed.max(self.version),
            positions: PositionsOut(&positions),
            viewport: self.viewport,
            notes: self.notes.iter().map(NoteOut::from).collect(),
            // A member that is no node any more is not written (as for positions).
            groups: self.groups.iter().map(|g| GroupOut::of(g, &|n| grouped.contains(n))).collect(),
            extra: &self.extra,
        };
        let mut text = serde_json::to_string_pretty(&sidecar).unwrap_or_default();
        text.push('\n');
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sidecar_names() {
        assert_eq!(sidecar_path(Path::new("/a/support.json")), PathBuf::from("/a/support.layout.json"));
        assert_eq!(sidecar_path(Path::new("x")), PathBuf::from("x.layout.json"));
    }

    #[test]
    fn layout_round_trips_and_drops_unknown_ids() {
        let mut l = Layout::default();
        l.positions.insert("a".into(), Position { x: 1.5, y: -2.0 });
        l.positions.insert("gone".into(), Position { x: 0.0, y: 0.0 });
        l.viewport = Some(Viewport { x: 1.0, y: 2.0, zoom: 0.5 });
        let text = l.to_text(["a", "b"]);
        let back = Layout::parse(&text).expect("parse");
        assert_eq!(back.positions.len(), 1);
        assert_eq!(back.positions["a"], Position { x: 1.5, y: -2.0 });
        assert_eq!(back.viewport, l.viewport);
        assert!(text.ends_with("}\n"));
        // Byte for byte what serializing the sidecar struct gives (the format did not change),
        // and an id listed twice is written once.
        let mut positions = IndexMap::new();
        positions.insert("a".to_owned(), Position { x: 1.5, y: -2.0 });
        let old = Sidecar { version: LAYOUT_VERSION, positions, viewport: l.viewport };
        let expected = serde_json::to_string_pretty(&old).unwrap_or_default() + "\n";
        assert_eq!(l.to_text(["a", "b", "a"]), expected);
        assert_eq!(Layout::default().to_text(["x"]), "{\n  \"version\": 1,\n  \"positions\": {}\n}\n");
    }

    #[test]
    fn bad_layouts_are_diagnosed() {
        for bad in [
            "",
            "[]",
            "{\"version\": \"2\"}",
            "{\"version\": 1, \"positions\": {\"a\": {\"x\": \"1\", \"y\": 0}}}",
            "{\"version\":0}",
            "{\"version\":2,\"notes\":{}}",
            "{\"version\":2,\"notes\":[{\"text\":\"no id\"}]}",
            "{\"version\":2,\"groups\":[{\"id\":\"g\",\"nodes\":\"a\"}]}",
        ] {
            let d = Layout::parse(bad).expect_err(bad);
            assert!(
                d.code == codes::BAD_LAYOUT || d.code.starts_with("json/") || !d.code.is_empty(),
                "{bad}: {d:?}"
            );
        }
    }
}
