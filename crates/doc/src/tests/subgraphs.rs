//! Subgraph references: resolved relative to the document's folder, reported per node (file,
//! format, title, node count) or with the reason they cannot be used, as diagnostics on the
//! node, kept current through edits, undo and saves; opened as documents. Hostile input
//! (huge and NUL-bearing references, devices, cycles, deep chains) never panics or hangs.

use std::path::Path;

use serde_json::json;

use super::{clock, workspace};
use crate::delta::Change;
use crate::document::{DocFormat, DocId, Document};
use crate::edit::Edit;
use crate::fs::{FakeFs, FileSystem, RealFs};
use crate::subgraphs::{codes, locate, resolve, SubgraphLink, MAX_DEPTH};
use crate::workspace::{DocEvent, FsChange};

/// A GRAPH.md document with one agent and one subgraph node per `(id, ref)` (`None`: no ref).
fn graphmd(name: &str, subs: &[(&str, Option<&str>)]) -> String {
    // Every subgraph node is reached from `start` and is an exit: the document is clean but
    // for what its references say.
    let exits: Vec<&str> = std::iter::once("start").chain(subs.iter().map(|(id, _)| *id)).collect();
    let mut t = format!(
        "---\nname: {name}\nspec_version: \"1.1.0\"\nentry: start\nexits: [{}]\nnodes:\n  - id: start\n    kind: agent\n",
        exits.join(", ")
    );
    for (id, r) in subs {
        t.push_str(&format!("  - id: {id}\n    kind: subgraph\n"));
        if let Some(r) = r {
            t.push_str(&format!("    ref: {}\n", serde_json::to_string(r).expect("string")));
        }
    }
    t.push_str("edges:");
    if subs.is_empty() {
        t.push_str(" []");
    }
    t.push('\n');
    for (id, _) in subs {
        t.push_str(&format!("  - from: start\n    to: {id}\n"));
    }
    t.push_str("---\n\nA test graph.\n");
    t
}

/// A Weaveflow definition with one `state_set` node and one subgraph node per `(id, graph_ref)`.
fn weaveflow(name: &str, subs: &[(&str, Option<&str>)]) -> String {
    let mut nodes = vec![json!({"id": "seed", "name": "seed", "type": "state_set", "config": {"value": 1},
        "state": {"target": {"path": "shared.seed"}}})];
    for (id, r) in subs {
        let config = match r {
            Some(r) => json!({"graph_ref": r}),
            None => json!({}),
        };
        nodes.push(json!({"id": id, "name": id, "type": "subgraph", "config": config, "state": {}}));
    }
    // seed → each subgraph node → __end__ (seed alone ends at __end__): clean but for the
    // references.
    let mut edges: Vec<serde_json::Value> = subs
        .iter()
        .flat_map(|(id, _)| [json!({"from": "seed", "to": id}), json!({"from": id, "to": "__end__"})])
        .collect();
    if subs.is_empty() {
        edges.push(json!({"from": "seed", "to": "__end__"}));
    }
    let def = json!({"version": "1.0", "name": name, "state_modules": [{"name": "weaveflow.protocols", "version": "1"}],
        "entry_point": "seed", "nodes": nodes, "edges": edges});
    serde_json::to_string_pretty(&def).expect("json")
}

fn parse(path: &str, text: &str) -> Document {
    let name = Path::new(path).file_name().map(|n| n.to_string_lossy().into_owned());
    crate::document::parse_document(name.as_deref(), text).expect("parses").0
}

fn links_of(fs: &dyn FileSystem, path: &str) -> Vec<SubgraphLink> {
    let text = String::from_utf8(fs.read(Path::new(path)).expect("readable")).expect("utf-8");
    resolve(fs, Some(Path::new(path)), &parse(path, &text))
}

fn code(l: &SubgraphLink) -> Option<&str> {
    l.problem.as_ref().map(|p| p.code.as_str())
}

#[test]
fn a_graphmd_reference_resolves_relative_to_the_document_folder() {
    let fs = FakeFs::new();
    fs.put("/w/flows/parent/GRAPH.md", graphmd("parent", &[("billing", Some("../billing/GRAPH.md"))]));
    fs.put("/w/flows/billing/GRAPH.md", graphmd("billing-flow", &[("x", None), ("y", None)]));
    let links = links_of(&fs, "/w/flows/parent/GRAPH.md");
    assert_eq!(links.len(), 1);
    let l = &links[0];
    assert_eq!(l.node, "billing");
    assert_eq!(l.reference.as_deref(), Some("../billing/GRAPH.md"));
    assert_eq!(l.path.as_deref(), Some("/w/flows/billing/GRAPH.md"));
    let t = l.target.as_ref().expect("read");
    assert_eq!((t.format, t.title.as_str(), t.node_count), (DocFormat::GraphMd, "billing-flow", 3));
    assert!(l.problem.is_none(), "{:?}", l.problem);
    assert!(l.openable());
}

#[test]
fn a_weaveflow_graph_ref_resolves_and_reports_the_child() {
    let fs = FakeFs::new();
    fs.put("/w/parent.json", weaveflow("parent", &[("run_child", Some("sub/child.json"))]));
    fs.put("/w/sub/child.json", weaveflow("", &[]));
    let links = links_of(&fs, "/w/parent.json");
    let t = links[0].target.as_ref().expect("read");
    // No name: the file name is the title.
    assert_eq!(
        (t.format, t.title.as_str(), t.file_name.as_str(), t.node_count),
        (DocFormat::Weaveflow, "child.json", "child.json", 1)
    );
    assert_eq!(links[0].path.as_deref(), Some("/w/sub/child.json"));
}

#[test]
fn a_folder_means_its_graph_md_and_a_bare_name_tries_json_then_md() {
    let fs = FakeFs::new();
    fs.put("/w/billing/GRAPH.md", graphmd("billing", &[]));
    fs.put("/w/child.json", weaveflow("child", &[]));
    fs.put("/w/notes.md", graphmd("notes", &[]));
    assert_eq!(locate(&fs, Path::new("/w"), "billing"), Ok("/w/billing/GRAPH.md".into()));
    assert_eq!(locate(&fs, Path::new("/w"), "./child"), Ok("/w/child.json".into()));
    assert_eq!(locate(&fs, Path::new("/w"), "notes"), Ok("/w/notes.md".into()));
    assert_eq!(locate(&fs, Path::new("/w/a/b"), "../../child.json"), Ok("/w/child.json".into()));
    assert_eq!(locate(&fs, Path::new("/elsewhere"), "/w/child.json"), Ok("/w/child.json".into()));
    // A folder without a GRAPH.md: the message names the file looked for.
    fs.mkdir("/w/empty");
    assert_eq!(locate(&fs, Path::new("/w"), "empty"), Err("/w/empty/GRAPH.md".into()));
    assert_eq!(locate(&fs, Path::new("/w"), "gone"), Err("/w/gone".into()));
}

#[test]
fn a_missing_file_is_a_warning_on_the_node_at_the_reference() {
    let fs = FakeFs::new();
    fs.put("/w/GRAPH.md", graphmd("p", &[("b", Some("nope/child.md"))]));
    let links = links_of(&fs, "/w/GRAPH.md");
    let p = links[0].problem.as_ref().expect("a problem");
    assert_eq!(
        (p.code.as_str(), p.short.as_str(), p.pointer.as_str()),
        (codes::NOT_FOUND, "file not found", "/nodes/1/ref")
    );
    assert!(p.message.contains("/w/nope/child.md") && p.message.contains("\"b\""), "{}", p.message);
    assert!(p.message.contains("relative to this document's folder"), "{}", p.message);
    // An absolute reference is not said to be relative.
    fs.put("/w/abs.md", graphmd("p", &[("b", Some("/elsewhere/child.md"))]));
    let abs = links_of(&fs, "/w/abs.md");
    let m = &abs[0].problem.as_ref().expect("not found").message;
    assert!(m.contains("no file at /elsewhere/child.md:") && !m.contains("relative"), "{m}");
    assert!(links[0].path.is_none() && !links[0].openable());
    let ds = crate::subgraphs::diagnostics(&links);
    assert_eq!(ds.len(), 1);
    assert_eq!(ds[0].severity, trellis_spec::Severity::Warning);
    assert_eq!(ds[0].element, Some(trellis_spec::Element::Node { id: "b".into() }));
    assert_eq!(ds[0].pointer, "/nodes/1/ref");
}

#[test]
fn a_file_that_is_not_a_graph_says_so() {
    let fs = FakeFs::new();
    fs.put(
        "/w/p.json",
        weaveflow(
            "p",
            &[
                ("text", Some("readme.txt")),
                ("empty", Some("empty.json")),
                ("bin", Some("bin.json")),
                ("dir", Some("d")),
            ],
        ),
    );
    fs.put("/w/readme.txt", "just words, no graph");
    fs.put("/w/empty.json", "");
    fs.put("/w/bin.json", [0xff, 0xfe, 0x00, 0x41]);
    fs.mkdir("/w/d");
    let links = links_of(&fs, "/w/p.json");
    let got: Vec<_> = links.iter().map(|l| (l.node.as_str(), code(l))).collect();
    assert_eq!(
        got,
        [
            ("text", Some(codes::NOT_A_GRAPH)),
            ("empty", Some(codes::NOT_A_GRAPH)),
            ("bin", Some(codes::UNREADABLE)),
            ("dir", Some(codes::NOT_FOUND)),
        ]
    );
    // The file exists: its path is reported, but it cannot be opened as a graph.
    assert_eq!(links[0].path.as_deref(), Some("/w/readme.txt"));
    assert!(!links[0].openable());
}

#[test]
fn an_unreadable_file_says_why() {
    let fs = FakeFs::new();
    fs.put("/w/p.json", weaveflow("p", &[("c", Some("c.json"))]));
    fs.put("/w/c.json", weaveflow("c", &[]));
    let text = fs.get_string("/w/p.json").expect("put");
    let doc = parse("/w/p.json", &text);
    // metadata, metadata (located), then the read fails.
    fs.fail_nth(crate::fs::FsOp::Read, 0, std::io::ErrorKind::PermissionDenied);
    let links = resolve(&fs, Some(Path::new("/w/p.json")), &doc);
    assert_eq!(code(&links[0]), Some(codes::UNREADABLE));
    assert!(links[0].problem.as_ref().is_some_and(|p| p.message.contains("could not be read")));
}

#[test]
fn a_self_reference_is_a_cycle() {
    let fs = FakeFs::new();
    fs.put("/w/GRAPH.md", graphmd("me", &[("again", Some("GRAPH.md")), ("folder", Some("."))]));
    let links = links_of(&fs, "/w/GRAPH.md");
    for l in &links {
        assert_eq!(code(l), Some(codes::CYCLE), "{l:?}");
        assert!(l.problem.as_ref().is_some_and(|p| p.message.contains("GRAPH.md → GRAPH.md")), "{l:?}");
        // A cycle is reported, but the document itself can still be opened (it is this one).
        assert!(l.openable());
    }
}

#[test]
fn a_to_b_to_a_is_a_cycle_seen_from_both() {
    let fs = FakeFs::new();
    fs.put("/w/a.json", weaveflow("a", &[("to_b", Some("b.json"))]));
    fs.put("/w/b.json", weaveflow("b", &[("to_a", Some("a.json"))]));
    let a = links_of(&fs, "/w/a.json");
    let p = a[0].problem.as_ref().expect("cycle");
    assert_eq!(p.code, codes::CYCLE);
    assert!(p.message.contains("a.json → b.json → a.json"), "{}", p.message);
    let b = links_of(&fs, "/w/b.json");
    assert!(b[0].problem.as_ref().is_some_and(|p| p.message.contains("b.json → a.json → b.json")));
    // A cycle further down (b → c → b) is reported on a's node too: building a would loop.
    fs.put("/w/b.json", weaveflow("b", &[("to_c", Some("c.json"))]));
    fs.put("/w/c.json", weaveflow("c", &[("to_b", Some("b.json"))]));
    let a = links_of(&fs, "/w/a.json");
    assert!(
        a[0].problem.as_ref().is_some_and(|p| p.message.contains("a.json → b.json → c.json → b.json")),
        "{a:?}"
    );
    // Mixed formats: a GRAPH.md child referring back to its Weaveflow parent.
    fs.put("/w/m/GRAPH.md", graphmd("m", &[("up", Some("../top.json"))]));
    fs.put("/w/top.json", weaveflow("top", &[("down", Some("m"))]));
    let top = links_of(&fs, "/w/top.json");
    assert_eq!(code(&top[0]), Some(codes::CYCLE));
    // Named relative to the document's folder: every GRAPH.md has the same file name.
    assert!(
        top[0].problem.as_ref().is_some_and(|p| p.message.contains("top.json → m/GRAPH.md → top.json")),
        "{top:?}"
    );
}

#[test]
fn a_diamond_is_not_a_cycle() {
    let fs = FakeFs::new();
    fs.put("/w/top.json", weaveflow("top", &[("l", Some("left.json")), ("r", Some("right.json"))]));
    fs.put("/w/left.json", weaveflow("left", &[("s", Some("shared.json"))]));
    fs.put("/w/right.json", weaveflow("right", &[("s", Some("shared.json"))]));
    fs.put("/w/shared.json", weaveflow("shared", &[]));
    let links = links_of(&fs, "/w/top.json");
    assert!(links.iter().all(|l| l.problem.is_none()), "{links:?}");
}

#[test]
fn hostile_references_are_refused_without_panicking() {
    let fs = FakeFs::new();
    let huge = "a/".repeat(60_000);
    let nul = "child\0.json";
    let escape = "../../../../../../../../../../etc/passwd";
    fs.put(
        "/w/p.json",
        weaveflow("p", &[("huge", Some(&huge)), ("nul", Some(nul)), ("escape", Some(escape))]),
    );
    let links = links_of(&fs, "/w/p.json");
    assert_eq!(code(&links[0]), Some(codes::UNREADABLE));
    // The message does not carry the 120,000 characters.
    assert!(links[0].problem.as_ref().is_some_and(|p| p.message.len() < 300), "{:?}", links[0].problem);
    assert_eq!(code(&links[1]), Some(codes::UNREADABLE));
    // Escaping the folder is resolved like any path (here: nothing there).
    assert_eq!(code(&links[2]), Some(codes::NOT_FOUND));
    assert!(links[2].problem.as_ref().is_some_and(|p| p.message.contains("/etc/passwd")));
}

#[test]
fn a_device_or_a_huge_real_path_is_never_read() {
    // The real file system: /dev/zero would never end if it were read.
    let dir = tempfile::tempdir().expect("temp dir");
    let parent = dir.path().join("p.json");
    let long = "x".repeat(3000);
    std::fs::write(
        &parent,
        weaveflow("p", &[("dev", Some("/dev/zero")), ("long", Some(&long)), ("passwd", Some("/etc/passwd"))]),
    )
    .expect("written");
    let links = links_of(&RealFs, &parent.display().to_string());
    assert_eq!(code(&links[0]), Some(codes::NOT_A_GRAPH), "{:?}", links[0]);
    // A 3,000-character file name: the OS refuses it; reported, not a panic.
    assert!(matches!(code(&links[1]), Some(codes::NOT_FOUND | codes::UNREADABLE)), "{:?}", links[1]);
    assert_eq!(code(&links[2]), Some(codes::NOT_A_GRAPH), "{:?}", links[2]);
}

#[test]
fn a_deep_chain_stops_following_and_a_wide_fan_is_bounded() {
    let fs = FakeFs::new();
    for i in 0..200 {
        fs.put(
            format!("/w/g{i}.json"),
            weaveflow(&format!("g{i}"), &[("next", Some(&format!("g{}.json", i + 1)))]),
        );
    }
    // g200 goes back to g0: a cycle too deep to be followed is not claimed.
    fs.put("/w/g200.json", weaveflow("g200", &[("next", Some("g0.json"))]));
    let links = links_of(&fs, "/w/g0.json");
    assert!(links[0].problem.is_none(), "{links:?}");
    // Within the depth, the same loop is found.
    fs.put(format!("/w/g{}.json", MAX_DEPTH - 2), weaveflow("short", &[("next", Some("g0.json"))]));
    let links = links_of(&fs, "/w/g0.json");
    assert_eq!(code(&links[0]), Some(codes::CYCLE));
    // Every file refers to ten others: bounded by the number of files read.
    for i in 0..50 {
        let subs: Vec<(String, String)> =
            (1..=10).map(|k| (format!("s{k}"), format!("f{}.json", (i * 7 + k) % 50))).collect();
        let subs: Vec<(&str, Option<&str>)> =
            subs.iter().map(|(a, b)| (a.as_str(), Some(b.as_str()))).collect();
        fs.put(format!("/w/f{i}.json"), weaveflow(&format!("f{i}"), &subs));
    }
    let links = links_of(&fs, "/w/f0.json");
    assert_eq!(links.len(), 10);
    assert!(links.iter().all(|l| l.target.is_some()));
}

#[test]
fn no_reference_warns_in_weaveflow_only_and_unsaved_documents_wait() {
    let fs = FakeFs::new();
    fs.put("/w/p.json", weaveflow("p", &[("bare", None)]));
    fs.put("/w/GRAPH.md", graphmd("p", &[("bare", None)]));
    let w = links_of(&fs, "/w/p.json");
    assert_eq!(code(&w[0]), Some(codes::NO_REFERENCE));
    let g = links_of(&fs, "/w/GRAPH.md");
    assert_eq!(g[0].problem, None);
    assert_eq!(g[0].reference, None);
    let doc = parse("GRAPH.md", &graphmd("p", &[("c", Some("child.md"))]));
    let unsaved = resolve(&fs, None, &doc);
    let p = unsaved[0].problem.as_ref().expect("unsaved");
    assert_eq!((p.code.as_str(), p.severity), (codes::UNSAVED, trellis_spec::Severity::Info));
}

#[test]
fn the_workspace_keeps_links_and_diagnostics_current_through_edits_and_undo() {
    let c = clock();
    let fs = FakeFs::new();
    fs.put("/w/GRAPH.md", graphmd("parent", &[("child", Some("missing.md"))]));
    fs.put("/w/real/GRAPH.md", graphmd("real", &[("a", None)]));
    let mut w = workspace(&fs, &c);
    let id = w.open(Path::new("/w/GRAPH.md")).expect("opens");
    let s = w.session(id).expect("open");
    assert_eq!(code(&s.subgraph_links()[0]), Some(codes::NOT_FOUND));
    assert!(s.diagnostics().iter().any(|d| d.code == codes::NOT_FOUND));
    let view = crate::view::DocumentView::of(s);
    assert_eq!(view.subgraphs.len(), 1);

    let edit = Edit::SetNodeField { id: "child".into(), field: "ref".into(), value: Some(json!("real")) };
    let delta = w.answer(id, Change::Edit(&edit)).expect("applies");
    let links = delta.subgraphs.expect("the links changed");
    assert_eq!(links[0].target.as_ref().map(|t| t.title.as_str()), Some("real"));
    let s = w.session(id).expect("open");
    assert!(!s.diagnostics().iter().any(|d| d.code.starts_with("subgraph/")), "{:?}", s.diagnostics());

    // An edit elsewhere: the links are not sent again.
    let other =
        Edit::SetNodeField { id: "start".into(), field: "description".into(), value: Some(json!("hi")) };
    assert!(w.answer(id, Change::Edit(&other)).expect("applies").subgraphs.is_none());

    let delta = w.answer(id, Change::Undo).expect("undo");
    assert!(delta.subgraphs.is_none());
    let delta = w.answer(id, Change::Undo).expect("undo");
    assert_eq!(code(&delta.subgraphs.expect("changed back")[0]), Some(codes::NOT_FOUND));
    assert!(w.session(id).expect("open").diagnostics().iter().any(|d| d.code == codes::NOT_FOUND));

    // The missing file appears: a refresh (a tab shown again) picks it up.
    fs.put("/w/missing.md", graphmd("found", &[]));
    assert!(w.refresh_subgraphs(id).expect("open"));
    let s = w.session(id).expect("open");
    assert!(s.subgraph_links()[0].problem.is_none());
    assert!(!s.diagnostics().iter().any(|d| d.code.starts_with("subgraph/")));
    assert!(!w.refresh_subgraphs(id).expect("open"), "nothing changed");
}

#[test]
fn opening_a_subgraph_opens_or_focuses_the_child_and_refuses_what_does_not_resolve() {
    let c = clock();
    let fs = FakeFs::new();
    fs.put("/w/p.json", weaveflow("p", &[("c", Some("kids/child.json")), ("lost", Some("lost.json"))]));
    fs.put("/w/kids/child.json", weaveflow("child", &[]));
    let mut w = workspace(&fs, &c);
    let parent = w.open(Path::new("/w/p.json")).expect("opens");
    let child = w.open_subgraph(parent, "c").expect("opens the child");
    assert_ne!(child, parent);
    assert_eq!(w.session(child).expect("open").path(), Some(Path::new("/w/kids/child.json")));
    // Again: the same tab.
    assert_eq!(w.open_subgraph(parent, "c").expect("focuses"), child);
    assert_eq!(w.ids().len(), 2);
    let refused = w.open_subgraph(parent, "lost").expect_err("not found");
    assert_eq!(refused[0].code, codes::NOT_FOUND);
    let refused = w.open_subgraph(parent, "seed").expect_err("not a subgraph");
    assert_eq!(refused[0].code, codes::NOT_OPENABLE);
    assert!(w.open_subgraph(DocId(999), "c").is_err());
}

#[test]
fn save_as_resolves_again_from_the_new_folder() {
    let c = clock();
    let fs = FakeFs::new();
    fs.put("/w/GRAPH.md", graphmd("p", &[("c", Some("child.md"))]));
    fs.put("/other/child.md", graphmd("child", &[]));
    let mut w = workspace(&fs, &c);
    let id = w.open(Path::new("/w/GRAPH.md")).expect("opens");
    assert_eq!(code(&w.session(id).expect("open").subgraph_links()[0]), Some(codes::NOT_FOUND));
    w.save_as(id, Path::new("/other/GRAPH.md")).expect("saved");
    let s = w.session(id).expect("open");
    assert!(s.subgraph_links()[0].problem.is_none(), "{:?}", s.subgraph_links());
    assert!(!s.diagnostics().iter().any(|d| d.code.starts_with("subgraph/")));
}

/// The views the UI's subgraph tests run on (`ui/src/test/fixtures/subgraphs.json`): a
/// GRAPH.md parent with a resolved, a missing, a self-referencing and an unnamed subgraph, and
/// a Weaveflow parent with a resolved and a missing one, as `get_document` sends them.
#[test]
fn export_fixtures_subgraphs() {
    let c = clock();
    let fs = FakeFs::new();
    fs.put(
        "/w/GRAPH.md",
        graphmd(
            "parent",
            &[
                ("billing", Some("billing")),
                ("lost", Some("lost.md")),
                ("again", Some("GRAPH.md")),
                ("bare", None),
            ],
        ),
    );
    fs.put("/w/billing/GRAPH.md", graphmd("billing", &[("x", None)]));
    fs.put(
        "/w/flow.json",
        weaveflow("flow", &[("run", Some("billing/GRAPH.md")), ("gone", Some("gone.json"))]),
    );
    let mut w = workspace(&fs, &c);
    let md = w.open(Path::new("/w/GRAPH.md")).expect("opens");
    let wf = w.open(Path::new("/w/flow.json")).expect("opens");
    let view =
        |id| serde_json::to_value(crate::view::DocumentView::of(w.session(id).expect("open"))).expect("view");
    let out = json!({"graphmd": view(md), "weaveflow": view(wf)});
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../ui/src/test/fixtures/subgraphs.json");
    let text = serde_json::to_string_pretty(&out).expect("fixture serializes") + "\n";
    std::fs::write(&path, text).expect("fixture written");
}

#[test]
fn outside_changes_near_the_references_resolve_them_again() {
    let c = clock();
    let fs = FakeFs::new();
    fs.put("/w/GRAPH.md", graphmd("parent", &[("c", Some("child.md")), ("far", Some("../kids/far.md"))]));
    fs.put("/kids/far.md", graphmd("far", &[]));
    let mut w = workspace(&fs, &c);
    let id = w.open(Path::new("/w/GRAPH.md")).expect("opens");
    assert_eq!(code(&w.session(id).expect("open").subgraph_links()[0]), Some(codes::NOT_FOUND));
    // The graphs the nodes open are watched (their folders, by the shell's watcher).
    assert!(w.watched_paths().contains(&"/kids/far.md".into()));
    // Something unrelated elsewhere: nothing to do.
    assert!(w.handle_fs_changes(&[FsChange::at("/elsewhere/x.md")]).is_empty());
    // The missing file appears beside the document.
    fs.put("/w/child.md", graphmd("child", &[]));
    let events = w.handle_fs_changes(&[FsChange::at("/w/child.md")]);
    assert!(
        matches!(events.as_slice(), [DocEvent::Revalidated { id: e, diagnostics }] if *e == id && !diagnostics.iter().any(|d| d.code.starts_with("subgraph/"))),
        "{events:?}"
    );
    // A referenced graph elsewhere is deleted.
    fs.delete("/kids/far.md");
    let events = w.handle_fs_changes(&[FsChange::at("/kids/far.md")]);
    assert_eq!(events.len(), 1);
    assert_eq!(code(&w.session(id).expect("open").subgraph_links()[1]), Some(codes::NOT_FOUND));
    // A change that changes nothing the nodes show sends nothing.
    fs.put("/w/notes.txt", "x");
    assert!(w.handle_fs_changes(&[FsChange::at("/w/notes.txt")]).is_empty());
}
