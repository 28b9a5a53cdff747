//! Node positions and the viewport, kept beside a GraphSpec in a sidecar file
//! (`support.json` -> `support.layout.json`), because the spec itself must carry only what the
//! runtime reads (a position in the spec would not survive `to_spec`).

use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use trellis_spec::{json, Diagnostic};
use ts_rs::TS;

use crate::edit::{Position, Viewport};

/// Diagnostic codes of this module.
pub mod codes {
    /// The layout sidecar could not be read (bad JSON or shape); positions are recomputed.
    pub const BAD_LAYOUT: &str = "doc/bad-layout";
}

/// The version written in the sidecar.
pub const LAYOUT_VERSION: u32 = 1;

/// Positions by node id, and the viewport.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Layout {
    pub positions: IndexMap<String, Position>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub viewport: Option<Viewport>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Sidecar {
    pub(crate) version: u32,
    #[serde(default)]
    pub(crate) positions: IndexMap<String, Position>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) viewport: Option<Viewport>,
}

/// What [`Layout::to_text`] writes: the [`Sidecar`] shape (same fields, same order), borrowed.
#[derive(Serialize)]
struct SidecarOut<'a> {
    version: u32,
    positions: PositionsOut<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    viewport: Option<Viewport>,
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

impl Layout {
    /// Reads a sidecar. Positions that are not finite numbers are refused with the rest.
    pub fn parse(text: &str) -> Result<Layout, Diagnostic> {
        let sidecar = match crate::layout_read::plain(text) {
            Some(s) => s,
            None => {
                let value = json::parse(text)?;
                serde_json::from_value(value).map_err(|e| {
                    Diagnostic::warning(codes::BAD_LAYOUT, format!("the layout file is not a layout: {e}"))
                })?
            }
        };
        if sidecar.version != LAYOUT_VERSION {
            return Err(Diagnostic::warning(
                codes::BAD_LAYOUT,
                format!(
                    "the layout file has version {}; this Trellis reads version {LAYOUT_VERSION}",
                    sidecar.version
                ),
            ));
        }
        if let Some((id, _)) = sidecar.positions.iter().find(|(_, p)| !p.x.is_finite() || !p.y.is_finite()) {
            return Err(Diagnostic::warning(
                codes::BAD_LAYOUT,
                format!("the layout of node \"{id}\" is not a finite position"),
            ));
        }
        Ok(Layout { positions: sidecar.positions, viewport: sidecar.viewport })
    }

    /// The sidecar text: 2-space indent, final newline. Only positions of `node_ids` are
    /// written, in that order, so a sidecar never keeps positions of deleted nodes.
    pub fn to_text<'a>(&self, node_ids: impl IntoIterator<Item = &'a str>) -> String {
        // Written straight from the ids and this layout: no map of copied ids in between (a
        // save of a 100,000-node document writes this too).
        // A map still, so an id listed twice is written once, as before.
        let positions: IndexMap<&str, &Position> =
            node_ids.into_iter().filter_map(|id| self.positions.get(id).map(|p| (id, p))).collect();
        let sidecar = SidecarOut {
            version: LAYOUT_VERSION,
            positions: PositionsOut(&positions),
            viewport: self.viewport,
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
            "{\"version\": 2}",
            "{\"version\": 1, \"positions\": {\"a\": {\"x\": \"1\", \"y\": 0}}}",
            "{\"version\":1,\"extra\":1}",
        ] {
            let d = Layout::parse(bad).expect_err(bad);
            assert!(
                d.code == codes::BAD_LAYOUT || d.code.starts_with("json/") || !d.code.is_empty(),
                "{bad}: {d:?}"
            );
        }
    }
}
