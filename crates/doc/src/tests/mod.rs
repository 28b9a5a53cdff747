//! Unit tests of sessions, the save pipeline, the journal and the workspace, on the fake file
//! system and a manual clock.

mod annotations;
mod auto_layout;
mod delta;
mod drawn_edges;
mod fixes;
mod journal;
mod preview_fixtures;
mod routes;
mod save;
mod session;
mod subgraphs;
mod text;
mod ui_fixtures;
mod undo_props;
mod workspace;

use std::path::PathBuf;
use std::sync::Arc;

use crate::clock::ManualClock;
use crate::document::DocId;
use crate::fs::FakeFs;
use crate::registries::Registries;
use crate::session::Session;
use crate::workspace::{builtin_loader, Workspace, EXAMPLE};

pub(crate) fn registries() -> Registries {
    Registries::new(trellis_spec::builtin::default_registry())
}

pub(crate) fn clock() -> ManualClock {
    ManualClock::new(1_000_000)
}

pub(crate) fn example_session(clock: &ManualClock) -> Session {
    Session::from_text(DocId(1), None, EXAMPLE, registries(), Arc::new(clock.clone())).expect("example opens")
}

/// A fake disk holding the example at `/w/support.json`, opened.
pub(crate) fn opened_example(clock: &ManualClock) -> (FakeFs, Session) {
    let fs = FakeFs::new();
    fs.put("/w/support.json", EXAMPLE);
    let s = Session::open(
        &fs,
        DocId(1),
        &PathBuf::from("/w/support.json"),
        registries(),
        Arc::new(clock.clone()),
    )
    .expect("opens");
    (fs, s)
}

pub(crate) fn workspace(fs: &FakeFs, clock: &ManualClock) -> Workspace {
    Workspace::new(Arc::new(fs.clone()), Arc::new(clock.clone()), &PathBuf::from("/data"), builtin_loader())
}

pub(crate) fn errors(d: &[trellis_spec::Diagnostic]) -> Vec<String> {
    d.iter().filter(|d| d.is_error()).map(|d| format!("{}: {}", d.code, d.message)).collect()
}

/// A chain of `nodes` placeholder nodes, about 550 bytes of text each (over 1 MiB at 2,500: the
/// size from which a save checks the text while it writes it), with `odd` node of a type
/// nobody describes when given.
pub(crate) fn large_text(nodes: usize, odd: Option<usize>) -> String {
    use serde_json::json;
    let note =
        "a placeholder that stands for a step of the real flow, kept so reviewers see the route; ".repeat(5);
    let ids: Vec<String> = (0..nodes).map(|i| format!("step{i}")).collect();
    let mut edges = vec![json!({"from": "__start__", "to": ids[0]})];
    edges.extend(ids.windows(2).map(|w| json!({"from": w[0], "to": w[1]})));
    edges.push(json!({"from": ids[nodes - 1], "to": "__end__"}));
    let spec = json!({
        "name": "large",
        "channels": {},
        "nodes": ids.iter().enumerate().map(|(i, id)| {
            let t = if Some(i) == odd { "no_such_type" } else { "noop" };
            json!({"id": id, "type": t, "config": {"note": format!("{i}: {note}")}})
        }).collect::<Vec<_>>(),
        "edges": edges,
    });
    let spec: trellis_spec::GraphSpec = serde_json::from_value(spec).expect("a GraphSpec");
    trellis_spec::to_canonical_string(&spec)
}
