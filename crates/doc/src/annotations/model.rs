//! The notes and groups of a document ([`Annotations`]): a note's text, colour and rectangle, a
//! group's members and parent, and the queries and repairs over them.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use trellis_spec::Diagnostic;
use ts_rs::TS;

use super::rules::{unknown_group, unknown_note};

/// A sticky note (flow coordinates; `x`, `y` is the top-left corner).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Note {
    pub id: String,
    /// Markdown.
    pub text: String,
    pub color: String,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
    /// Fields a newer Trellis wrote that this one does not know: written back as they were.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    #[ts(skip)]
    pub extra: Map<String, Value>,
}

/// A named frame around nodes and notes. A node or note is in at most one group (its
/// innermost); a group is inside its `parent`. The frame is drawn around the members.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Group {
    pub id: String,
    pub name: String,
    pub color: String,
    /// Node ids directly in this group.
    pub nodes: Vec<String>,
    /// Note ids directly in this group.
    pub notes: Vec<String>,
    /// The group this one is nested in.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// Drawn as one box (members hidden, edges aggregated: `crate::collapse`).
    #[serde(default)]
    pub collapsed: bool,
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    #[ts(skip)]
    pub extra: Map<String, Value>,
}

/// All notes and groups of a document (what a note or group edit replaces).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Annotations {
    pub notes: Vec<Note>,
    pub groups: Vec<Group>,
}

impl Annotations {
    pub fn is_empty(&self) -> bool {
        self.notes.is_empty() && self.groups.is_empty()
    }
    pub(super) fn note_mut(&mut self, id: &str) -> Result<&mut Note, Diagnostic> {
        self.notes.iter_mut().find(|n| n.id == id).ok_or_else(|| unknown_note(id))
    }
    pub(super) fn group_mut(&mut self, id: &str) -> Result<&mut Group, Diagnostic> {
        self.groups.iter_mut().find(|g| g.id == id).ok_or_else(|| unknown_group(id))
    }
    pub fn group(&self, id: &str) -> Option<&Group> {
        self.groups.iter().find(|g| g.id == id)
    }
    /// The group directly holding each node.
    pub fn node_groups(&self) -> HashMap<&str, &str> {
        self.groups.iter().flat_map(|g| g.nodes.iter().map(move |n| (n.as_str(), g.id.as_str()))).collect()
    }
    /// `id` and its ancestors, innermost first (a cycle, which reading never lets in, stops).
    pub fn chain<'a>(&'a self, id: &'a str) -> Vec<&'a str> {
        let mut out = vec![id];
        let mut at = id;
        while let Some(p) = self.group(at).and_then(|g| g.parent.as_deref()) {
            if out.contains(&p) {
                break;
            }
            out.push(p);
            at = p;
        }
        out
    }
    /// Removes a node or note from whatever group holds it.
    pub(super) fn leave(&mut self, node: Option<&str>, note: Option<&str>) {
        for g in &mut self.groups {
            if let Some(n) = node {
                g.nodes.retain(|m| m != n);
            }
            if let Some(n) = note {
                g.notes.retain(|m| m != n);
            }
        }
    }
    /// Drops groups left with nothing in them (no node, note or nested group), repeatedly.
    pub(super) fn prune(&mut self) {
        loop {
            let parents: HashSet<String> = self.groups.iter().filter_map(|g| g.parent.clone()).collect();
            let before = self.groups.len();
            self.groups.retain(|g| !g.nodes.is_empty() || !g.notes.is_empty() || parents.contains(&g.id));
            if self.groups.len() == before {
                return;
            }
        }
    }
    /// Makes what was read consistent, saying what it dropped: notes with a bad rectangle,
    /// ids twice, members in two groups (the first keeps them), parents that do not exist or
    /// make a cycle (the group is then top-level).
    pub fn repair(&mut self) -> Vec<String> {
        let mut problems = Vec::new();
        let mut seen = HashSet::new();
        self.notes.retain(|n| {
            let ok = seen.insert(n.id.clone()) && !n.id.is_empty();
            let finite = [n.x, n.y, n.width, n.height].iter().all(|v| v.is_finite());
            if !ok || !finite || n.width <= 0.0 || n.height <= 0.0 {
                problems.push(format!("note \"{}\" dropped (id twice or a bad rectangle)", n.id));
                return false;
            }
            true
        });
        let notes: HashSet<String> = self.notes.iter().map(|n| n.id.clone()).collect();
        let mut seen = HashSet::new();
        self.groups.retain(|g| {
            let ok = !g.id.is_empty() && seen.insert(g.id.clone());
            if !ok {
                problems.push(format!("group \"{}\" dropped (its id is empty or used twice)", g.id));
            }
            ok
        });
        let (mut in_node, mut in_note) = (HashSet::new(), HashSet::new());
        for g in &mut self.groups {
            let before = g.nodes.len() + g.notes.len();
            g.nodes.retain(|n| in_node.insert(n.clone()));
            g.notes.retain(|n| notes.contains(n) && in_note.insert(n.clone()));
            if g.nodes.len() + g.notes.len() != before {
                problems.push(format!(
                    "group \"{}\": members that are in another group or missing dropped",
                    g.id
                ));
            }
        }
        let ids: HashSet<String> = self.groups.iter().map(|g| g.id.clone()).collect();
        for i in 0..self.groups.len() {
            let Some(parent) = self.groups[i].parent.clone() else { continue };
            let cyclic = {
                let mut at = Some(parent.clone());
                let mut steps = 0;
                let me = self.groups[i].id.clone();
                let mut cycle = false;
                while let Some(p) = at {
                    if p == me || steps > self.groups.len() {
                        cycle = true;
                        break;
                    }
                    steps += 1;
                    at = self.group(&p).and_then(|g| g.parent.clone());
                }
                cycle
            };
            if !ids.contains(&parent) || cyclic {
                problems.push(format!(
                    "group \"{}\": its parent \"{parent}\" is missing or nests it in itself",
                    self.groups[i].id
                ));
                self.groups[i].parent = None;
            }
        }
        problems
    }
}
