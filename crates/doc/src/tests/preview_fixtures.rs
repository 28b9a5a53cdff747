//! What the UI's browser preview replays (`ui/src/test/fixtures/preview.json`, read by
//! `ui/src/preview/backend.ts`): the views of a few documents as the app opens them, and
//! scenarios, each the edits a browser script or a screenshot makes on some of those documents
//! with what Rust answered to each, in order. The preview computes nothing: an edit that is not
//! the next one recorded is refused, so the browser scripts fail when the UI and Rust part ways.
//! `npm test` reruns this and fails when the committed file is stale.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{json, Map, Value};

use super::{clock, registries};
use crate::clock::ManualClock;
use crate::delta::Change;
use crate::document::{DocId, Document};
use crate::edit::Edit;
use crate::fs::FakeFs;
use crate::session::Session;
use crate::view::DocumentView;
use crate::workspace::EXAMPLE;

fn corpus(rel: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus").join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The preview's documents, each with an id of its own (a scenario may open several).
const DOCUMENTS: [&str; 3] = ["example", "support", "empty"];

/// The document `name` as the app opens it (laid out where its file has no positions): the
/// example from a file, the corpus support agent with a layout file beside it, an empty
/// document as New makes it.
fn open(name: &str, c: &ManualClock) -> Session {
    let id = DocId(1 + DOCUMENTS.iter().position(|d| *d == name).expect("a preview document") as u64);
    let fs = FakeFs::new();
    let at = |path: &str| {
        let mut s = Session::open(&fs, id, Path::new(path), registries(), Arc::new(c.clone()))
            .expect("the document opens");
        s.lay_out_if_missing();
        s
    };
    match name {
        "example" => {
            fs.put("/examples/example.json", EXAMPLE);
            at("/examples/example.json")
        }
        "support" => {
            fs.put("/corpus/support-agent.json", corpus("ilmek/docs/graphs-as-data.mdx-support-agent.json"));
            fs.put(
                "/corpus/support-agent.layout.json",
                r#"{"version": 1, "positions": {"agent": {"x": 0, "y": 120}, "checkout": {"x": 0, "y": 260}}}"#,
            );
            at("/corpus/support-agent.json")
        }
        _ => Session::new(
            id,
            Document::GraphSpec(trellis_spec::GraphSpec::default()),
            registries(),
            Arc::new(c.clone()),
        ),
    }
}

fn view(s: &Session) -> Value {
    serde_json::to_value(DocumentView::of(s)).expect("view serializes")
}

/// A scenario being recorded: its documents, fresh, and the script so far.
struct Scenario {
    names: Vec<&'static str>,
    open: BTreeMap<&'static str, Session>,
    script: Vec<Value>,
}

impl Scenario {
    fn new(names: &[&'static str], c: &ManualClock) -> Scenario {
        let open = names.iter().map(|d| (*d, self::open(d, c))).collect();
        Scenario { names: names.to_vec(), open, script: Vec::new() }
    }

    fn doc(&self, name: &str) -> &Session {
        self.open.get(name).unwrap_or_else(|| panic!("{name} is not a document of the scenario"))
    }

    /// Sends `change` (an edit, `"undo"` or `"redo"`) to `doc`, records it with Rust's answer or
    /// refusal, and gives the answer back.
    fn step(&mut self, doc: &str, change: Value) -> Value {
        let s = self.open.get_mut(doc).unwrap_or_else(|| panic!("{doc} is not a document of the scenario"));
        let answer = match change.as_str() {
            Some("undo") => s.answer(Change::Undo),
            Some("redo") => s.answer(Change::Redo),
            _ => s.answer(Change::Edit(&serde_json::from_value::<Edit>(change.clone()).expect("an edit"))),
        };
        let recorded = match answer {
            Ok(delta) => json!({"change": change, "answer": delta}),
            Err(d) => json!({"change": change, "refused": {"message": d.message, "diagnostics": [d]}}),
        };
        self.script.push(recorded.clone());
        recorded
    }

    fn done(self) -> Value {
        json!({"documents": self.names, "script": self.script})
    }
}

/// The config the registry gives a new node of `type_name` (its `defaults`), as the UI sends it.
fn defaults(type_name: &str) -> Value {
    let r = registries();
    let found =
        r.registry.types().find(|t| t.info.type_name == type_name).and_then(|t| t.info.defaults.clone());
    found.unwrap_or_else(|| json!({}))
}

/// What the UI's clipboard sends `paste` for the nodes `ids` of `s` (ui/src/lib/clipboard.ts,
/// `buildFragment` then `parseFragment`): those nodes in document order, the edges between them,
/// the declared channels their guards read, and their places relative to the top-left one.
fn fragment(s: &Session, ids: &[&str]) -> Value {
    let v = view(s);
    let chosen = |id: &Value| id.as_str().is_some_and(|id| ids.contains(&id));
    let nodes: Vec<Value> = v["spec"]["nodes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|n| chosen(&n["id"]))
        .map(|n| json!({"id": n["id"], "type": n["type"], "config": n["config"]}))
        .collect();
    let edges: Vec<Value> = v["spec"]["edges"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|e| chosen(&e["from"]) && chosen(&e["to"]))
        .map(|e| match e.get("when") {
            Some(when) if when.is_object() => json!({"from": e["from"], "to": e["to"], "when": when}),
            _ => json!({"from": e["from"], "to": e["to"]}),
        })
        .collect();
    let mut channels = Map::new();
    for e in &edges {
        if let Some(c) = e["when"]["channel"].as_str() {
            if let Some(reducer) = v["spec"]["channels"][c]["reducer"].as_str() {
                channels.insert(c.to_owned(), json!({"reducer": reducer}));
            }
        }
    }
    let positions = &v["layout"]["positions"];
    let at = |id: &Value, axis: &str| positions[id.as_str().unwrap_or_default()][axis].as_f64();
    let min = |axis: &str| nodes.iter().filter_map(|n| at(&n["id"], axis)).fold(f64::INFINITY, f64::min);
    let (x0, y0) = (min("x"), min("y"));
    let rel: Map<String, Value> = nodes
        .iter()
        .filter_map(|n| {
            let (x, y) = (at(&n["id"], "x")?, at(&n["id"], "y")?);
            Some((n["id"].as_str()?.to_owned(), json!({"x": x - x0, "y": y - y0})))
        })
        .collect();
    json!({"name": null, "channels": channels, "nodes": nodes, "edges": edges, "layout": {"positions": rel}})
}

/// The node ids an answer says the edit made.
fn created(recorded: &Value) -> Vec<String> {
    let made = recorded["answer"]["created"].as_array().expect("the edit made nodes");
    made.iter().filter_map(|id| id.as_str().map(str::to_owned)).collect()
}

/// `id` moved by `(dx, dy)` from where it is in `s`.
fn moved(s: &Session, id: &str, dx: f64, dy: f64) -> Value {
    let p = s.layout().positions.get(id).unwrap_or_else(|| panic!("{id} is placed"));
    json!({"x": p.x + dx, "y": p.y + dy})
}

#[test]
fn export_fixtures_preview() {
    let c = clock();
    let documents: Map<String, Value> =
        DOCUMENTS.iter().map(|d| ((*d).to_owned(), view(&open(d, &c)))).collect();
    let mut scenarios = Map::new();

    // Building the corpus's support agent by hand in an empty document: two nodes from the
    // registry (dropped, and added by the search's Enter, where the browser script's window
    // puts them: the replay does not compare places), a field, a rename, an edge, a channel,
    // the edge's condition.
    let mut s = Scenario::new(&["empty"], &c);
    for (t, x, y) in [("llm", -185, -53), ("http", 0, 36)] {
        s.step(
            "empty",
            json!({"op": "add_node", "type": t, "config": defaults(t), "position": {"x": x, "y": y}}),
        );
    }
    s.step(
        "empty",
        json!({"op": "set_config_field", "id": "http", "path": "/url", "value": "https://shop.example.com/checkout"}),
    );
    s.step("empty", json!({"op": "rename_node", "from": "http", "to": "checkout"}));
    s.step("empty", json!({"op": "connect", "from": "llm", "to": "checkout"}));
    s.step("empty", json!({"op": "add_channel", "name": "intent", "reducer": "last_write"}));
    s.step("empty", json!({"op": "set_when", "index": 0, "when": {"channel": "intent", "eq": "buy"}}));
    scenarios.insert("build-support".into(), s.done());

    // An edge into `__start__`: Rust refuses it and says why.
    let mut s = Scenario::new(&["example"], &c);
    s.step("example", json!({"op": "connect", "from": "classify", "to": "__start__"}));
    scenarios.insert("refused-connection".into(), s.done());

    // Three nodes of the example pasted into the support agent, undone, redone, pasted again
    // (Rust gives the second copies fresh ids).
    let mut s = Scenario::new(&["example", "support"], &c);
    let copied = fragment(s.doc("example"), &["classify", "lookup_order", "answer"]);
    let paste = json!({"op": "paste", "fragment": copied, "at": {"x": 300, "y": 80}});
    s.step("support", paste.clone());
    s.step("support", json!("undo"));
    s.step("support", json!("redo"));
    s.step("support", paste);
    scenarios.insert("copy-paste".into(), s.done());

    // Everything selected and duplicated, then the copies deleted.
    let mut s = Scenario::new(&["example"], &c);
    let all = ["classify", "lookup_order", "approve_refund", "open_ticket", "answer", "reply"];
    let copies = s.step(
        "example",
        json!({"op": "paste", "fragment": fragment(s.doc("example"), &all), "at": {"x": 40, "y": 40}}),
    );
    s.step("example", json!({"op": "remove_nodes", "ids": created(&copies)}));
    scenarios.insert("duplicate-delete".into(), s.done());

    // Drags: one node, two selected together, one on the zoomed-out canvas.
    let mut s = Scenario::new(&["example"], &c);
    let one = json!({"classify": moved(s.doc("example"), "classify", 160.0, 100.0)});
    s.step("example", json!({"op": "move_nodes", "positions": one, "notes": {}, "groups": {}}));
    let two = json!({
        "lookup_order": moved(s.doc("example"), "lookup_order", 0.0, 160.0),
        "open_ticket": moved(s.doc("example"), "open_ticket", 0.0, 160.0),
    });
    s.step("example", json!({"op": "move_nodes", "positions": two, "notes": {}, "groups": {}}));
    let far = json!({"reply": moved(s.doc("example"), "reply", 100.0, 0.0)});
    s.step("example", json!({"op": "move_nodes", "positions": far, "notes": {}, "groups": {}}));
    scenarios.insert("drag".into(), s.done());

    // The node inspector's screenshot: a temperature the type does not allow (Rust's finding
    // shows under the field).
    let mut s = Scenario::new(&["example"], &c);
    s.step("example", json!({"op": "set_config_field", "id": "answer", "path": "/temperature", "value": 3}));
    scenarios.insert("node-inspector".into(), s.done());

    // The WebKit smoke test: an llm from the registry, then everything copied and pasted back
    // (Rust renames every copy).
    let mut s = Scenario::new(&["support"], &c);
    s.step(
        "support",
        json!({"op": "add_node", "type": "llm", "config": defaults("llm"), "position": {"x": 320, "y": 120}}),
    );
    let everything = fragment(s.doc("support"), &["agent", "checkout", "llm"]);
    s.step("support", json!({"op": "paste", "fragment": everything, "at": {"x": 320, "y": 360}}));
    scenarios.insert("smoke".into(), s.done());

    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../ui/src/test/fixtures/preview.json");
    let out = json!({"documents": documents, "scenarios": scenarios});
    let text = serde_json::to_string_pretty(&out).expect("fixture serializes") + "\n";
    std::fs::write(&path, text).expect("fixture written");
}
