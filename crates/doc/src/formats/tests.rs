//! Weaveflow and GRAPH.md sessions on the fake file system: open, edit, save in their own
//! format (only the edited value changes in the file), refusals, undo and redo.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{json, Value};

use crate::clock::ManualClock;
use crate::document::{DocFormat, DocId};
use crate::edit::Edit;
use crate::fs::FakeFs;
use crate::registries::Registries;
use crate::save;
use crate::session::Session;

fn registries() -> Registries {
    Registries::new(trellis_spec::builtin::default_registry())
}

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../formats/tests/fixtures")
}

fn seed() -> String {
    std::fs::read_to_string(fixtures().join("graphmd/support-triage.GRAPH.md")).expect("seed readable")
}

fn open(fs: &FakeFs, path: &str, clock: &ManualClock) -> Session {
    Session::open(fs, DocId(1), Path::new(path), registries(), Arc::new(clock.clone())).expect("opens")
}

fn edit(s: &mut Session, v: Value) {
    s.apply(&serde_json::from_value::<Edit>(v).expect("edit")).expect("applies");
}

/// The lines that differ (both texts must have as many lines).
fn changed_lines(a: &str, b: &str) -> Vec<(String, String)> {
    let (la, lb): (Vec<_>, Vec<_>) = (a.split('\n').collect(), b.split('\n').collect());
    assert_eq!(la.len(), lb.len(), "line counts differ:\n{b}");
    la.iter().zip(&lb).filter(|(x, y)| x != y).map(|(x, y)| ((*x).to_owned(), (*y).to_owned())).collect()
}

/// The first string leaf inside a node's config: `(node id, pointer, value)`.
fn first_string_leaf(doc: &Value) -> Option<(String, String, String)> {
    fn walk(v: &Value, at: String) -> Option<(String, String)> {
        match v {
            Value::String(s) => Some((at, s.clone())),
            Value::Object(m) => m
                .iter()
                .find_map(|(k, x)| walk(x, format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")))),
            Value::Array(a) => a.iter().enumerate().find_map(|(i, x)| walk(x, format!("{at}/{i}"))),
            _ => None,
        }
    }
    doc["nodes"].as_array()?.iter().find_map(|n| {
        let (p, s) = walk(n.get("config")?, String::new())?;
        Some((n["id"].as_str()?.to_owned(), p, s))
    })
}

fn corpus() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(fixtures().join("weaveflow/corpus"))
        .expect("corpus folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_weaveflow_corpus_file_saves_with_only_the_edited_value_changed() {
    let files = corpus();
    assert_eq!(files.len(), 4, "the corpus has four examples");
    let (mut saved, mut with_problems) = (Vec::new(), Vec::new());
    for file in files {
        let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let original = std::fs::read_to_string(&file).expect("readable");
        let fs = FakeFs::new();
        let path = format!("/w/{name}");
        fs.put(&path, &original);
        let c = ManualClock::new(1_000_000);
        let mut s = open(&fs, &path, &c);
        assert_eq!(s.format(), DocFormat::Weaveflow, "{name}");
        assert_eq!(s.text(), original, "{name}: an unedited document writes the file back unchanged");
        let value: Value = serde_json::from_str(&original).expect("json");
        let Some((node, pointer, old)) = first_string_leaf(&value) else {
            // assistant.json: no config anywhere, and an error (node "input" has no outgoing
            // edge): the save writes it with its problem, only the edited line changed.
            edit(
                &mut s,
                json!({"op": "set_node_field", "id": "input", "field": "description", "value": "edited"}),
            );
            assert!(s.diagnostics().iter().any(|d| d.code == "weaveflow/no-outgoing-edge"), "{name}");
            let expected = s.text();
            save::save(&fs, &mut s).unwrap_or_else(|r| panic!("{name} not saved: {:?}", r.diagnostics));
            assert!(s.diagnostics().iter().any(|d| d.code == "weaveflow/no-outgoing-edge"), "{name}: kept");
            let now = fs.get_string(&path).expect("saved file");
            assert_eq!(now, expected, "{name}: the writer's text, spliced");
            // Only the new field (the line before it gains its comma).
            let added: Vec<&str> = now.lines().filter(|l| !original.lines().any(|o| o == *l)).collect();
            assert_eq!(added, ["      },", "      \"description\": \"edited\""], "{name}");
            assert!(!s.is_dirty());
            with_problems.push(name);
            continue;
        };
        edit(
            &mut s,
            json!({"op": "set_config_field", "id": node, "path": pointer, "value": "changed by trellis"}),
        );
        assert!(s.is_dirty());
        let out = save::save(&fs, &mut s).unwrap_or_else(|r| panic!("{name} not saved: {:?}", r.diagnostics));
        assert_eq!(out.layout_path, None, "{name}: Weaveflow keeps positions in the document, no sidecar");
        assert!(fs.get_string(format!("/w/{}", name.replace(".json", ".layout.json"))).is_none());
        let now = fs.get_string(&path).expect("saved file");
        let diff = changed_lines(&original, &now);
        assert_eq!(diff.len(), 1, "{name}: {diff:?}");
        let old_json = serde_json::to_string(&old).expect("string");
        assert_eq!(diff[0].0.replacen(&old_json, "\"changed by trellis\"", 1), diff[0].1, "{name}");
        assert!(!s.is_dirty());
        saved.push(name);
    }
    assert_eq!(saved, ["codespaces_demo.json", "state_operations.json", "supervisor_mode.json"]);
    assert_eq!(with_problems, ["assistant.json"]);
}

#[test]
fn weaveflow_positions_go_into_metadata_and_undo_restores_the_text() {
    let fs = FakeFs::new();
    let original =
        std::fs::read_to_string(fixtures().join("weaveflow/corpus/state_operations.json")).expect("read");
    fs.put("/w/ops.json", &original);
    let c = ManualClock::new(1_000_000);
    let mut s = open(&fs, "/w/ops.json", &c);
    let first = s.document().node_ids()[0].to_owned();
    // An automatic layout is neither a step nor a change of the file.
    edit(
        &mut s,
        json!({"op": "apply_layout", "positions": {first.clone(): {"x": 5, "y": 6}}, "automatic": true}),
    );
    assert!(!s.is_dirty() && !s.can_undo());
    assert_eq!(s.text(), original);
    edit(&mut s, json!({"op": "move_nodes", "positions": {first.clone(): {"x": 360, "y": 120.5}}}));
    let moved = s.text();
    let v: Value = serde_json::from_str(&moved).expect("json");
    assert_eq!(v["metadata"]["web"]["positions"][&first], json!({"x": 360, "y": 120.5}));
    c.advance(5_000);
    edit(&mut s, json!({"op": "set_doc_field", "field": "description", "value": "ops"}));
    assert!(s.can_undo());
    s.undo();
    assert_eq!(s.text(), moved);
    s.undo();
    assert_eq!(s.text(), original);
    assert!(!s.is_dirty());
    s.redo();
    assert_eq!(s.text(), moved);
    assert_eq!(s.layout().positions.get(&first).map(|p| p.x), Some(360.0));
    save::save(&fs, &mut s).expect("saved");
    // Reopened: the position comes from the document.
    let again = open(&fs, "/w/ops.json", &c);
    assert_eq!(again.layout().positions.get(&first).map(|p| p.y), Some(120.5));
}

#[test]
fn weaveflow_edits_that_the_format_cannot_hold_are_refused() {
    let fs = FakeFs::new();
    fs.put(
        "/w/ops.json",
        std::fs::read_to_string(fixtures().join("weaveflow/corpus/state_operations.json")).expect("read"),
    );
    let c = ManualClock::new(1_000_000);
    let mut s = open(&fs, "/w/ops.json", &c);
    let before = s.text();
    for e in [
        json!({"op": "add_channel", "name": "x", "reducer": "append"}),
        json!({"op": "set_body", "text": "hi"}),
        json!({"op": "set_node_field", "id": "nope", "field": "name", "value": "x"}),
        json!({"op": "set_node_field", "id": s.document().node_ids()[0], "field": "bogus", "value": "x"}),
        json!({"op": "set_node_field", "id": s.document().node_ids()[0], "field": "state", "value": 3}),
        json!({"op": "set_edge_field", "index": 999, "field": "to", "value": "x"}),
    ] {
        let e: Edit = serde_json::from_value(e).expect("edit");
        let d = s.apply(&e).expect_err("refused");
        assert!(d.code.starts_with("doc/"), "{}", d.code);
    }
    assert_eq!(s.text(), before);
    assert!(!s.can_undo());
    // State bindings and conditions are typed: a binding path the validator dislikes shows up.
    let id = s.document().node_ids()[0].to_owned();
    edit(
        &mut s,
        json!({"op": "set_node_field", "id": id, "field": "state", "value": {"target": {"path": "nowhere.x"}}}),
    );
    assert!(s.diagnostics().iter().any(|d| d.is_error()), "{:?}", s.diagnostics());
}

#[test]
fn graphmd_seed_judge_timeout_changes_one_line_and_keeps_the_body() {
    let original = seed();
    let fs = FakeFs::new();
    fs.put("/w/GRAPH.md", &original);
    let c = ManualClock::new(1_000_000);
    let mut s = open(&fs, "/w/GRAPH.md", &c);
    assert_eq!(s.format(), DocFormat::GraphMd);
    assert_eq!(s.text(), original);
    assert!(s.diagnostics().iter().all(|d| !d.is_error()), "{:?}", s.diagnostics());
    edit(&mut s, json!({"op": "set_config_field", "id": "route", "path": "/timeout_ms", "value": 2500}));
    let out = save::save(&fs, &mut s).unwrap_or_else(|r| panic!("not saved: {:?}", r.diagnostics));
    assert_eq!(out.layout_path.as_deref(), Some("/w/GRAPH.layout.json"));
    let now = fs.get_string("/w/GRAPH.md").expect("saved");
    assert_eq!(
        changed_lines(&original, &now),
        [("    timeout_ms: 1000".to_owned(), "    timeout_ms: 2500".to_owned())]
    );
    let body = |t: &str| t.splitn(3, "---").nth(2).map(str::to_owned);
    assert_eq!(body(&now), body(&original));
    // Undo brings the old text back (dirty: the file holds the new one); redo the new.
    s.undo();
    assert_eq!(s.text(), original);
    assert!(s.is_dirty());
    s.redo();
    assert_eq!(s.text(), now);
    assert!(!s.is_dirty());
}

#[test]
fn graphmd_body_edge_and_doc_fields() {
    let original = seed();
    let fs = FakeFs::new();
    fs.put("/w/GRAPH.md", &original);
    let c = ManualClock::new(1_000_000);
    let mut s = open(&fs, "/w/GRAPH.md", &c);
    // Typing the body coalesces into one step.
    edit(&mut s, json!({"op": "set_body", "text": "\n# Triage\n"}));
    c.advance(200);
    edit(&mut s, json!({"op": "set_body", "text": "\n# Triage notes\n"}));
    assert!(s.text().ends_with("---\n\n# Triage notes\n"), "{}", s.text());
    s.undo();
    assert_eq!(s.text(), original);
    assert!(!s.can_undo());
    c.advance(5_000);
    edit(&mut s, json!({"op": "set_edge_field", "index": 1, "field": "kind", "value": "loop"}));
    assert!(s.text().contains("kind: loop"), "{}", s.text());
    edit(&mut s, json!({"op": "set_doc_field", "field": "path_budget", "value": {"cost_usd": 0.5}}));
    assert!(s.text().contains("0.5"), "{}", s.text());
    let d = s.apply(
        &serde_json::from_value(json!({"op": "set_doc_field", "field": "nodes", "value": []})).expect("e"),
    );
    assert!(d.is_err());
    edit(&mut s, json!({"op": "rename_node", "from": "close", "to": "done"}));
    assert!(s.text().contains("exits: [done]") && s.text().contains("to: done"), "{}", s.text());
    edit(&mut s, json!({"op": "move_nodes", "positions": {"done": {"x": 1, "y": 2}}}));
    assert_eq!(s.layout().positions.get("done").map(|p| p.x), Some(1.0));
}

#[test]
fn graphmd_save_with_errors_writes_the_problems_and_counts_them() {
    let original = seed();
    let fs = FakeFs::new();
    fs.put("/w/GRAPH.md", &original);
    let c = ManualClock::new(1_000_000);
    let mut s = open(&fs, "/w/GRAPH.md", &c);
    edit(&mut s, json!({"op": "set_node_field", "id": "route", "field": "kind", "value": "wizard"}));
    let errors = s.diagnostics().iter().filter(|d| d.is_error()).count();
    assert!(errors > 0);
    save::save(&fs, &mut s).expect("saved with its problems");
    assert_eq!(s.diagnostics().iter().filter(|d| d.is_error()).count(), errors, "the problems stay");
    let written = fs.get_string("/w/GRAPH.md").expect("written");
    assert!(written.contains("kind: wizard"), "{written}");
    // The problems stay: reading the file again finds them.
    let again = open(&fs, "/w/GRAPH.md", &c);
    assert_eq!(again.diagnostics().iter().filter(|d| d.is_error()).count(), errors);
    // Fixing it and saving again gives the original back.
    s.undo();
    save::save(&fs, &mut s).expect("saved");
    assert!(!s.diagnostics().iter().any(|d| d.is_error()));
    assert_eq!(fs.get_string("/w/GRAPH.md").as_deref(), Some(original.as_str()));
}

#[test]
fn a_conflict_is_detected_for_the_new_formats_too() {
    let original = seed();
    let fs = FakeFs::new();
    fs.put("/w/GRAPH.md", &original);
    let c = ManualClock::new(1_000_000);
    let mut s = open(&fs, "/w/GRAPH.md", &c);
    edit(&mut s, json!({"op": "set_config_field", "id": "route", "path": "/timeout_ms", "value": 10}));
    fs.put("/w/GRAPH.md", original.replace("support-triage", "someone-else"));
    let refusal = save::save(&fs, &mut s).expect_err("conflict");
    assert!(refusal.conflict);
    assert!(fs.get_string("/w/GRAPH.md").is_some_and(|t| t.contains("someone-else")));
}

#[test]
fn reload_of_a_weaveflow_file_is_one_undoable_step() {
    let fs = FakeFs::new();
    let original =
        std::fs::read_to_string(fixtures().join("weaveflow/corpus/state_operations.json")).expect("read");
    fs.put("/w/ops.json", &original);
    let c = ManualClock::new(1_000_000);
    let mut s = open(&fs, "/w/ops.json", &c);
    let theirs = original.replacen("\"version\"", "\"description\": \"theirs\",\n  \"version\"", 1);
    let fp = crate::fingerprint::Fingerprint::of(theirs.as_bytes(), None);
    s.reload_from(&theirs, fp).expect("reloads");
    assert_eq!(s.text(), theirs);
    assert!(!s.is_dirty());
    s.undo();
    assert_eq!(s.text(), original);
}

#[test]
fn the_graphmd_view_follows_a_judge_timeout_edit() {
    use crate::formats::view::{display_spec, GraphMdView};
    let fs = FakeFs::new();
    fs.put("/w/GRAPH.md", seed());
    let c = ManualClock::new(1_000_000);
    let mut s = open(&fs, "/w/GRAPH.md", &c);
    let before = GraphMdView::of(s.graphmd().expect("graphmd"));
    assert!(!before.analysis.paths.is_empty(), "{:?}", before.analysis.diagnostics);
    edit(&mut s, json!({"op": "set_config_field", "id": "route", "path": "/timeout_ms", "value": 60000}));
    let after = GraphMdView::of(s.graphmd().expect("graphmd"));
    assert_eq!(after.front["nodes"][0]["timeout_ms"], json!(60000));
    // The judge's timeout bounds its latency: some path through it changes.
    let lat = |v: &GraphMdView| v.analysis.paths.iter().map(|p| p.latency_ms).collect::<Vec<_>>();
    assert_ne!(lat(&before), lat(&after));
    // The canvas projection: same ids, edges one for one.
    let spec = display_spec(s.document()).expect("projection");
    assert_eq!(spec.nodes.iter().map(|n| n.id.as_str()).collect::<Vec<_>>(), ["route", "answer", "close"]);
    assert_eq!(spec.nodes[0].type_name.as_deref(), Some("judge"));
    assert_eq!(spec.edges.len(), 2);
    assert_eq!((spec.edges[0].from.as_str(), spec.edges[0].to.as_str()), ("route", "answer"));
}

#[test]
fn a_first_move_adds_only_the_metadata_lines_to_a_weaveflow_file() {
    let fs = FakeFs::new();
    let original =
        std::fs::read_to_string(fixtures().join("weaveflow/corpus/codespaces_demo.json")).expect("read");
    assert!(!original.contains("\"metadata\""), "the example has no positions yet");
    fs.put("/w/demo.json", &original);
    let c = ManualClock::new(1_000_000);
    let mut s = open(&fs, "/w/demo.json", &c);
    let id = s.document().node_ids()[0].to_owned();
    edit(&mut s, json!({"op": "move_nodes", "positions": {id.clone(): {"x": 10, "y": 20}}}));
    save::save(&fs, &mut s).expect("saved");
    let now = fs.get_string("/w/demo.json").expect("saved");
    // Every original line is still there, in order; what was added is the metadata block.
    let (old, new): (Vec<&str>, Vec<&str>) = (original.lines().collect(), now.lines().collect());
    // (The line before the insertion gains a comma.)
    let mut j = 0;
    for line in &new {
        if j < old.len() && line.trim_end_matches(',') == old[j].trim_end_matches(',') {
            j += 1;
        }
    }
    assert_eq!(j, old.len(), "original lines lost:\n{now}");
    assert_eq!(new.len() - old.len(), 10, "only the metadata block was added:\n{now}");
    assert!(now.contains(&format!("\"{id}\": {{")), "{now}");
    let v: Value = serde_json::from_str(&now).expect("json");
    assert_eq!(v["metadata"]["web"]["positions"][&id], json!({"x": 10, "y": 20}));
}

/// A problem and where it is: (code, pointer, (line, column)).
type Place = (String, String, Option<(u32, u32)>);

/// The validation problems of a Weaveflow text as `trellis validate` reports them (spans in
/// that text).
fn cli_places(text: &str) -> Vec<Place> {
    let options = trellis_formats::weaveflow::ValidateOptions::default();
    let reg = registries();
    let parsed = trellis_formats::weaveflow::check_text(text, Some(&reg.registry), &options);
    parsed
        .diagnostics
        .iter()
        .map(|d| (d.code.clone(), d.pointer.clone(), d.span.map(|s| (s.line, s.column))))
        .collect()
}

fn app_places(s: &Session) -> Vec<Place> {
    s.diagnostics()
        .iter()
        .map(|d| (d.code.clone(), d.pointer.clone(), d.span.map(|s| (s.line, s.column))))
        .collect()
}

#[test]
fn weaveflow_positions_in_the_app_are_positions_in_the_file() {
    // A file written by hand, compactly (the writer would spread each object over lines): an
    // edge to a node that does not exist, on line 18 of the file.
    let text = std::fs::read_to_string(fixtures().join("weaveflow/corpus/assistant.json"))
        .expect("read")
        .replace("\"edges\": []", "\"edges\": [\n    { \"from\": \"input\", \"to\": \"ghost\" }\n  ]");
    let fs = FakeFs::new();
    fs.put("/w/assistant.json", &text);
    let c = ManualClock::new(1_000_000);
    let mut s = open(&fs, "/w/assistant.json", &c);
    let cli = cli_places(&text);
    assert!(
        cli.iter().any(|(_, pointer, at)| pointer.starts_with("/edges/0") && at.is_some_and(|(line, _)| line == 18)),
        "the fixture's problem is on line 18 of the file: {cli:?}"
    );
    assert_eq!(app_places(&s), cli, "the app shows the CLI's places");
    assert_ne!(
        trellis_formats::weaveflow::to_string(s.weaveflow().expect("weaveflow")),
        text,
        "the writer's own text differs, so the check means something"
    );

    // After an edit, the places are those of the text a save writes (the file's own text with
    // the edit spliced in), not of the writer's canonical text.
    edit(&mut s, json!({"op": "set_doc_field", "field": "description", "value": "checked"}));
    let to_save = s.text();
    assert_ne!(to_save, text);
    assert_eq!(app_places(&s), cli_places(&to_save));
}

#[test]
fn node_ids_made_from_type_names_are_readable_and_fresh() {
    use crate::ids::id_base;
    for (type_name, id) in [
        ("llm", "llm"),
        ("mcp.tool", "mcp_tool"),
        ("HttpRequest", "http_request"),
        ("  Café Order ", "cafe_order"),
        ("3d-render", "n_3d_render"),
        ("!!!", "node"),
        ("__start__", "start"),
    ] {
        assert_eq!(id_base(type_name), id, "{type_name:?}");
    }
    // Through `add_node` without an id, in each format: the answer names the id chosen.
    let mut s = Session::from_text(
        DocId(1),
        Some("g.json"),
        r#"{"nodes": [{"id": "llm", "type": "llm", "config": {}}], "edges": [], "channels": {}}"#,
        registries(),
        Arc::new(ManualClock::new(0)),
    )
    .expect("reads");
    let add = |s: &mut Session, t: &str| {
        let e: Edit =
            serde_json::from_value(json!({"op": "add_node", "type": t, "position": {"x": 0, "y": 0}}))
                .expect("edit");
        s.answer(crate::delta::Change::Edit(&e)).expect("added").created
    };
    assert_eq!(add(&mut s, "llm"), vec!["llm_2".to_owned()]);
    assert_eq!(add(&mut s, "llm"), vec!["llm_3".to_owned()]);
    assert_eq!(add(&mut s, "HttpRequest"), vec!["http_request".to_owned()]);
    let fs = FakeFs::new();
    fs.put("/w/g.GRAPH.md", seed());
    let c = ManualClock::new(0);
    let mut md = open(&fs, "/w/g.GRAPH.md", &c);
    let made = add(&mut md, "Tool Call");
    assert_eq!(made, vec!["tool_call".to_owned()]);
    assert!(md.document().node_ids().contains(&"tool_call"));
}
