//! The delta protocol: after any sequence of edits (refused ones included), undos and redos,
//! in every format, applying each answer's [`ViewDelta`] to the view held gives exactly the
//! view a full reload (`get_document`) gives. The same machinery writes the fixture the UI's
//! delta code is tested against (`ui/src/test/fixtures/edit-deltas.json`).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use proptest::prelude::*;
use serde_json::{json, Map, Value};

use super::{clock, registries};
use crate::clock::ManualClock;
use crate::delta::Change;
use crate::document::DocId;
use crate::edit::Edit;
use crate::fs::FakeFs;
use crate::session::Session;
use crate::view::DocumentView;
use crate::workspace::EXAMPLE;

/// A step before it meets a document: numbers that pick ids, indices and values from the
/// document as it is when the step runs (so steps stay meaningful in every format).
#[derive(Debug, Clone, Copy)]
pub(super) struct Recipe {
    pub(super) kind: u8,
    pub(super) a: usize,
    pub(super) b: usize,
    pub(super) v: i32,
}

pub(super) fn recipe() -> impl Strategy<Value = Recipe> {
    (0u8..34, 0usize..64, 0usize..64, -3i32..40).prop_map(|(kind, a, b, v)| Recipe { kind, a, b, v })
}

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../formats/tests/fixtures")
}

/// The three documents: the example GraphSpec, a Weaveflow corpus file, the GRAPH.md seed.
pub(super) fn sessions(c: &ManualClock) -> Vec<(&'static str, Session)> {
    let fs = FakeFs::new();
    let read = |p: &str| std::fs::read_to_string(fixtures().join(p)).expect("fixture readable");
    fs.put("/w/support.json", EXAMPLE);
    fs.put("/w/ops.json", read("weaveflow/corpus/state_operations.json"));
    fs.put("/w/GRAPH.md", read("graphmd/support-triage.GRAPH.md"));
    let open = |p: &str| {
        Session::open(&fs, DocId(1), Path::new(p), registries(), Arc::new(c.clone())).expect("opens")
    };
    vec![
        ("graphspec", open("/w/support.json")),
        ("weaveflow", open("/w/ops.json")),
        ("graphmd", open("/w/GRAPH.md")),
    ]
}

/// The change a recipe makes of the document as it is now.
pub(super) fn change_of(s: &Session, r: Recipe) -> Option<Edit> {
    let ids: Vec<String> = s.document().node_ids().into_iter().map(str::to_owned).collect();
    let id = |i: usize| ids.get(i % ids.len().max(1)).cloned().unwrap_or_else(|| "nobody".into());
    let edges = view_of(s)["spec"]["edges"].as_array().map_or(0, Vec::len);
    let pos = json!({"x": r.v * 37, "y": r.b as i32 * 11 - 200});
    let value = (r.v >= 0).then(|| json!(r.v));
    let pick = |options: &[&'static str]| options[r.b % options.len()];
    let (notes, groups) = (&s.layout().notes, &s.layout().groups);
    let note =
        |i: usize| notes.get(i % notes.len().max(1)).map_or_else(|| "no-note".to_owned(), |n| n.id.clone());
    let group = |i: usize| {
        groups.get(i % groups.len().max(1)).map_or_else(|| "no-group".to_owned(), |g| g.id.clone())
    };
    let notes_if = |i: usize| if i % 2 == 0 && !notes.is_empty() { vec![note(i)] } else { Vec::new() };
    let e = match r.kind {
        0 => json!({"op": "add_node", "type": pick(&["noop", "llm", "state_set", "agent"]), "position": pos}),
        1 => json!({"op": "remove_nodes", "ids": [id(r.a)]}),
        2 => json!({"op": "rename_node", "from": id(r.a), "to": format!("n{}", r.v)}),
        3 => {
            json!({"op": "set_config_field", "id": id(r.a), "path": pick(&["/model", "/k/deep", "/labels/0"]), "value": value})
        }
        4 => json!({"op": "connect", "from": id(r.a), "to": id(r.b)}),
        5 => json!({"op": "disconnect", "index": r.a % (edges + 1)}),
        6 => json!({"op": "move_nodes", "positions": {id(r.a): pos}}),
        7 => {
            json!({"op": "set_node_type", "id": id(r.a), "type": pick(&["noop", "llm", "state_copy", "human"])})
        }
        8 => {
            json!({"op": "set_node_field", "id": id(r.a), "field": pick(&["name", "description", "kind", "timeout"]), "value": value.map(|v| json!(format!("x{v}")))})
        }
        9 => {
            json!({"op": "set_edge_field", "index": r.a % (edges + 1), "field": pick(&["condition", "to", "kind"]), "value": id(r.b)})
        }
        10 => {
            json!({"op": "set_doc_field", "field": pick(&["name", "description", "entry"]), "value": value.map(|v| json!(format!("d{v}")))})
        }
        11 => json!({"op": "set_body", "text": format!("# body {}\n", r.v)}),
        12 => json!({"op": "rename_graph", "name": value.map(|v| format!("g{v}"))}),
        13 => json!({"op": "add_channel", "name": pick(&["intent", "c1"]), "reducer": "append"}),
        14 => json!({"op": "remove_channel", "name": pick(&["intent", "c1"])}),
        15 => json!({"op": "set_when", "index": r.a % (edges + 1), "when": {"channel": "intent", "eq": r.v}}),
        16 => {
            json!({"op": "paste", "fragment": {"nodes": [{"id": id(r.a), "type": "noop"}, {"id": "p1", "type": "noop"}], "edges": [{"from": id(r.a), "to": "p1"}]}, "at": pos})
        }
        17 => json!({"op": "apply_layout", "positions": {id(r.a): pos, id(r.b): {"x": 1, "y": 2}}}),
        // Notes and groups (issue 16).
        18 => json!({"op": "add_note", "text": format!("# note {}\n*see* `x`", r.v), "position": pos}),
        19 => {
            json!({"op": "set_note", "id": note(r.a), "text": format!("t{}", r.v), "color": pick(&["blue", "#ff00aa", "teal"]), "position": pos, "size": {"width": 100 + r.b, "height": 80}})
        }
        20 => json!({"op": "remove_notes", "ids": [note(r.a)]}),
        21 => {
            json!({"op": "add_group", "name": format!("g{}", r.v), "nodes": [id(r.a), id(r.b)], "notes": notes_if(r.b)})
        }
        22 => {
            json!({"op": "set_group", "id": group(r.a), "name": format!("n{}", r.v), "color": pick(&["red", "green"]), "collapsed": r.v % 3 != 0})
        }
        23 => json!({"op": "ungroup", "id": group(r.a)}),
        24 => {
            json!({"op": "move_nodes", "positions": {id(r.a): pos}, "notes": {note(r.b): pos}, "groups": {id(r.a): (r.v % 2 == 0).then(|| group(r.b))}})
        }
        25 => json!({"op": "add_group", "groups": [group(r.a)], "nodes": [id(r.b)]}),
        26 => json!({"op": "set_group", "id": group(r.b), "collapsed": r.v % 2 == 0}),
        // Undo and redo are the remaining kinds (more often than any one edit).
        _ => return None,
    };
    let mut e = e;
    strip_nulls(&mut e);
    Some(serde_json::from_value(e).expect("a well-formed edit"))
}

/// `"value": null` in the recipes means "absent" (remove the field).
fn strip_nulls(v: &mut Value) {
    if let Value::Object(m) = v {
        m.retain(|k, x| !(x.is_null() && k != "name"));
    }
}

pub(super) fn view_of(s: &Session) -> Value {
    serde_json::to_value(DocumentView::of(s)).expect("view serializes")
}

/// The UI's job, done in Rust to check the answers carry enough: applies a delta (as JSON)
/// to a view (as JSON).
pub(super) fn apply_delta(view: &mut Value, delta: &Value) {
    fn edit_list(list: &mut Value, e: &Value) {
        let items = list.as_array_mut().expect("a list");
        let at = e["at"].as_u64().expect("at") as usize;
        let at = at.min(items.len());
        let end = (at + e["remove"].as_u64().expect("remove") as usize).min(items.len());
        items.splice(at..end, e["insert"].as_array().expect("insert").iter().cloned());
    }
    for (list, key) in [("nodes", "nodes"), ("edges", "edges")] {
        for e in delta[key].as_array().expect("edits") {
            edit_list(&mut view["spec"][list], e);
        }
    }
    for e in delta["edgeLabels"].as_array().expect("label edits") {
        edit_list(&mut view["edgeLabels"], e);
    }
    if !delta["extraEdges"].is_null() {
        view["extraEdges"] = delta["extraEdges"].clone();
    }
    view["spec"]["name"] = delta["name"].clone();
    view["spec"]["channels"] = delta["channels"].clone();
    let layout = view["layout"].as_object_mut().expect("layout");
    for (id, p) in delta["positions"].as_object().expect("positions") {
        let positions = layout.get_mut("positions").and_then(Value::as_object_mut).expect("positions");
        if p.is_null() {
            positions.shift_remove(id);
        } else {
            positions.insert(id.clone(), p.clone());
        }
    }
    match &delta["viewport"] {
        Value::Null => {
            layout.shift_remove("viewport");
        }
        v => {
            layout.insert("viewport".into(), v.clone());
        }
    }
    if let Some(a) = delta["annotations"].as_object() {
        layout.insert("notes".into(), a["notes"].clone());
        layout.insert("groups".into(), a["groups"].clone());
    }
    if !delta["collapsed"].is_null() {
        view["collapsed"] = delta["collapsed"].clone();
    }
    if let Some(routes) = delta["routes"].as_object() {
        for e in routes["edges"].as_array().expect("route edits") {
            edit_list(&mut view["routes"]["edges"], e);
        }
        if !routes["extra"].is_null() {
            view["routes"]["extra"] = routes["extra"].clone();
        }
    }
    if !delta["diagnostics"].is_null() {
        edit_list(&mut view["diagnostics"], &delta["diagnostics"]);
    }
    for key in ["layoutMissing", "dirty", "canUndo", "canRedo", "notices"] {
        view[key] = delta[key].clone();
    }
    // Absent when the text reads.
    match &delta["textError"] {
        Value::Null => {
            view.as_object_mut().expect("a view").shift_remove("textError");
        }
        e => view["textError"] = e.clone(),
    }
    for key in ["weaveflow", "graphmd"] {
        if !delta[key].is_null() {
            view[key] = delta[key].clone();
        }
    }
}

/// Runs one recipe: an edit (refusals change nothing and answer nothing), an undo or a redo.
fn step(s: &mut Session, c: &ManualClock, r: Recipe) -> Option<(Value, Value)> {
    // Sometimes within the coalescing second, sometimes not.
    c.advance(if r.v % 2 == 0 { 300 } else { 1_500 });
    let change = change_of(s, r);
    let answer = match (&change, r.kind % 2) {
        (Some(e), _) => s.answer(Change::Edit(e)),
        (None, 0) => s.answer(Change::Undo),
        (None, _) => s.answer(Change::Redo),
    };
    let delta = serde_json::to_value(answer.ok()?).expect("delta serializes");
    let what = match &change {
        Some(e) => serde_json::to_value(e).expect("edit serializes"),
        None if r.kind % 2 == 0 => json!("undo"),
        None => json!("redo"),
    };
    Some((what, delta))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 5, ..ProptestConfig::default() })]
    #[test]
    fn deltas_rebuild_the_full_view_in_every_format(recipes in prop::collection::vec(recipe(), 200)) {
        let c = clock();
        for (format, mut s) in sessions(&c) {
            let mut held = view_of(&s);
            for (n, r) in recipes.iter().enumerate() {
                let Some((what, delta)) = step(&mut s, &c, *r) else { continue };
                apply_delta(&mut held, &delta);
                let full = view_of(&s);
                prop_assert!(held == full, "{format}, step {n} ({what}): the delta gave\n{held:#}\nbut the view is\n{full:#}");
            }
        }
    }
}

/// A small deterministic generator (xorshift): the fixture must be the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self, below: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % below
    }
}

/// Steps per format in the UI's fixture.
const FIXTURE_STEPS: usize = 25;

/// Writes `ui/src/test/fixtures/edit-deltas.json`: per format, the view on open, then for each
/// step the change, Rust's delta and Rust's full view after it. `npm test` runs this and fails
/// when the committed file is stale; `src/test/delta.test.ts` applies the deltas with the UI's
/// code and compares with the views. The registry list (never touched by an edit) is left out.
#[test]
fn export_fixtures_edit_deltas() {
    let c = clock();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut out = Map::new();
    for (format, mut s) in sessions(&c) {
        let initial = without_registry(view_of(&s));
        let mut steps = Vec::new();
        while steps.len() < FIXTURE_STEPS {
            // Every fifth step an undo, every fifth a redo; the rest random edits.
            let kind = match steps.len() % 5 {
                3 => 28,
                4 => 29,
                _ => rng.next(27) as u8,
            };
            let r = Recipe {
                kind,
                a: rng.next(64) as usize,
                b: rng.next(64) as usize,
                v: rng.next(43) as i32 - 3,
            };
            if let Some((what, delta)) = step(&mut s, &c, r) {
                steps.push(json!({"change": what, "delta": delta, "view": without_registry(view_of(&s))}));
            }
        }
        out.insert(format.into(), json!({"initial": initial, "steps": steps}));
    }
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../ui/src/test/fixtures/edit-deltas.json");
    std::fs::create_dir_all(path.parent().expect("a folder")).expect("fixture folder");
    let text = serde_json::to_string(&Value::Object(out)).expect("fixture serializes") + "\n";
    std::fs::write(&path, text).expect("fixture written");
}

fn without_registry(mut v: Value) -> Value {
    if let Some(m) = v.as_object_mut() {
        m.shift_remove("registry");
    }
    v
}

/// A save does not change the document: what it changes in the view (dirty, the reading's
/// findings, notices, the layout file) is what `delta_since` answers, in every format, for a
/// save that writes and for one that is refused.
#[test]
fn a_saves_delta_gives_the_view_after_the_save() {
    let c = clock();
    let fs = FakeFs::new();
    let read = |p: &str| std::fs::read_to_string(fixtures().join(p)).expect("fixture readable");
    // An unknown field: a finding of the reading, which the save drops with the field.
    let unknown_field = EXAMPLE.replacen(
        "\"name\": \"support-agent\",",
        "\"name\": \"support-agent\", \"owner\": \"ops\",",
        1,
    );
    assert_ne!(unknown_field, EXAMPLE);
    fs.put("/w/support.json", unknown_field);
    fs.put("/w/ops.json", read("weaveflow/corpus/state_operations.json"));
    fs.put("/w/GRAPH.md", read("graphmd/support-triage.GRAPH.md"));
    // A node of a type nobody describes: saved with its problem.
    fs.put("/w/odd.json", EXAMPLE.replacen("\"type\": \"llm\"", "\"type\": \"no_such_type\"", 1));
    // A position the layout file cannot hold: the save is refused.
    fs.put("/w/nan.json", EXAMPLE);
    for (path, saves) in [
        ("/w/support.json", true),
        ("/w/ops.json", true),
        ("/w/GRAPH.md", true),
        ("/w/odd.json", true),
        ("/w/nan.json", false),
    ] {
        let mut s =
            Session::open(&fs, DocId(1), Path::new(path), registries(), Arc::new(c.clone())).expect("opens");
        let rename = match s.document() {
            crate::document::Document::GraphSpec(_) => json!({"op": "rename_graph", "name": "renamed"}),
            _ => json!({"op": "move_nodes", "positions": {s.document().node_ids()[0]: {"x": 5, "y": 7}}}),
        };
        s.apply(&serde_json::from_value(rename).expect("edit")).expect("applies");
        if path == "/w/nan.json" {
            s.layout.positions.insert("classify".into(), crate::edit::Position { x: f64::NAN, y: 0.0 });
        }
        let mut held = view_of(&s);
        let before = s.diagnostics().to_vec();
        let readings = before.iter().filter(|d| d.code == trellis_spec::read::codes::UNKNOWN_FIELD).count();
        let saved = crate::save::save(&fs, &mut s);
        assert_eq!(saved.is_ok(), saves, "{path}: {saved:?}");
        let delta = serde_json::to_value(s.delta_since(&before)).expect("delta serializes");
        apply_delta(&mut held, &delta);
        assert_eq!(held, view_of(&s), "{path}: the save's delta");
        assert_eq!(held["dirty"], !saves, "{path}");
        if path == "/w/support.json" {
            assert_eq!(readings, 1, "the unknown field is a finding before the save");
            assert!(held["diagnostics"]
                .as_array()
                .is_some_and(|d| d.iter().all(|d| d["code"] != "spec/unknown-field")));
        }
    }
}
