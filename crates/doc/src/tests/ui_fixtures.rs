//! The documents and answers the UI's Vitest tests run against, written by Rust
//! (`ui/src/test/fixtures/documents.json`): views of real documents as `get_document` sends
//! them, and recorded scripts of what `apply_edit`, `undo` and `redo` answer to the edits the
//! UI tests make. The UI tests replay them (`ui/src/test/recorded.ts`); an edit the UI sends
//! that the script did not record fails the test, so the UI cannot drift from Rust unseen.
//! `npm test` reruns this and fails when the committed file is stale.

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{json, Map, Value};
use trellis_spec::FixEdit;

use super::{clock, registries};
use crate::delta::Change;
use crate::document::{DocFormat, DocId};
use crate::edit::Edit;
use crate::fixes;
use crate::formats::convert::convert_document;
use crate::fs::FakeFs;
use crate::session::Session;
use crate::view::DocumentView;
use crate::workspace::{builtin_loader, Workspace, EXAMPLE};

fn corpus(rel: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus").join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The corpus support agent (its condition reads `intent`, never declared), opened from
/// `/corpus/support-agent.json` with a layout file beside it.
fn support(c: &crate::clock::ManualClock) -> Session {
    let fs = FakeFs::new();
    fs.put("/corpus/support-agent.json", corpus("ilmek/docs/graphs-as-data.mdx-support-agent.json"));
    fs.put(
        "/corpus/support-agent.layout.json",
        r#"{"version": 1, "positions": {"agent": {"x": 0, "y": 120}, "checkout": {"x": 0, "y": 260}}}"#,
    );
    Session::open(
        &fs,
        DocId(1),
        std::path::Path::new("/corpus/support-agent.json"),
        registries(),
        Arc::new(c.clone()),
    )
    .expect("the support agent opens")
}

/// A spec for the user's own runtime: two types no registry describes, and a built-in type
/// (`llm`) used as that runtime defines it (a `system` field the built-in one does not have).
fn own_types(c: &crate::clock::ManualClock) -> Session {
    let text = json!({
        "name": "own",
        "channels": {},
        "nodes": [
            {"id": "plan", "type": "planner", "config": {"depth": 2}},
            {"id": "search", "type": "web_search", "config": {"q": "x"}},
            {"id": "think", "type": "llm", "config": {"model": "m", "system": "be brief"}},
        ],
        "edges": [
            {"from": "__start__", "to": "plan"}, {"from": "plan", "to": "search"},
            {"from": "search", "to": "think"}, {"from": "think", "to": "__end__"},
        ],
    })
    .to_string();
    Session::from_text(DocId(1), None, &text, registries(), Arc::new(c.clone())).expect("own types open")
}

fn example(c: &crate::clock::ManualClock) -> Session {
    Session::from_text(DocId(1), None, EXAMPLE, registries(), Arc::new(c.clone())).expect("example opens")
}

/// The example with a note, a collapsed group of five nodes around it, and an expanded group
/// nested in it (issue 16): what the canvas's notes, frames and boxes are drawn from.
fn annotated(c: &crate::clock::ManualClock) -> Session {
    let mut s = example(c);
    let positions: Map<String, Value> = [
        ("classify", 80, 220),
        ("lookup_order", 340, 80),
        ("approve_refund", 600, 80),
        ("open_ticket", 340, 360),
        ("answer", 600, 220),
        ("reply", 860, 220),
    ]
    .iter()
    .map(|(id, x, y)| ((*id).to_owned(), json!({"x": x, "y": y})))
    .collect();
    for e in [
        json!({"op": "apply_layout", "positions": positions}),
        json!({"op": "add_note", "text": "# Refunds\nOver *100 EUR* need approval", "position": {"x": 340, "y": 500}}),
        json!({"op": "add_group", "name": "Refund path", "nodes": ["lookup_order", "approve_refund"]}),
        json!({"op": "add_group", "name": "Handling", "groups": ["group"], "nodes": ["open_ticket", "answer", "reply"], "notes": ["note"], "color": "green"}),
        json!({"op": "set_group", "id": "group_2", "collapsed": true}),
    ] {
        s.apply(&serde_json::from_value::<Edit>(e).expect("edit")).expect("applies");
    }
    s
}

fn view(s: &Session) -> Value {
    serde_json::to_value(DocumentView::of(s)).expect("view serializes")
}

/// Runs `steps` on `s` and records each with Rust's answer (or its refusal).
fn script(s: &mut Session, steps: &[Value]) -> Value {
    let recorded: Vec<Value> = steps
        .iter()
        .map(|step| {
            // A document fix (`{"fix": ...}`) is applied as `apply_fix` applies it: the edit it
            // stands for, answered with the whole view.
            if let Some(fix) = step.get("fix") {
                let fix: FixEdit = serde_json::from_value(fix.clone()).expect("a fix");
                let edit =
                    fixes::edit_for(&fix, s.document()).expect("the fix applies").expect("a document fix");
                s.answer(Change::Edit(&edit)).expect("the fix's edit is accepted");
                return json!({"change": step, "view": view(s)});
            }
            let answer = match step.as_str() {
                Some("undo") => s.answer(Change::Undo),
                Some("redo") => s.answer(Change::Redo),
                _ => s.answer(Change::Edit(&serde_json::from_value::<Edit>(step.clone()).expect("an edit"))),
            };
            match answer {
                Ok(delta) => json!({"change": step, "answer": delta}),
                Err(d) => json!({"change": step, "refused": {"message": d.message, "diagnostics": [d]}}),
            }
        })
        .collect();
    Value::Array(recorded)
}

/// The config the registry gives a new node of `type_name` (its `defaults`).
fn defaults(type_name: &str) -> Value {
    let r = registries();
    let found =
        r.registry.types().find(|t| t.info.type_name == type_name).and_then(|t| t.info.defaults.clone());
    found.unwrap_or_else(|| json!({}))
}

#[test]
fn export_fixtures_documents() {
    let c = clock();
    let mut out = Map::new();
    out.insert("example".into(), json!({"view": view(&example(&c))}));
    out.insert("support".into(), json!({"view": view(&support(&c))}));
    out.insert("annotated".into(), json!({"view": view(&annotated(&c))}));
    out.insert("ownTypes".into(), json!({"view": view(&own_types(&c))}));

    let mut scripts = Map::new();
    scripts.insert(
        "declare-intent-then-undo".into(),
        script(
            &mut support(&c),
            &[json!({"fix": {"kind": "declare_channel", "name": "intent"}}), json!("undo")],
        ),
    );
    scripts.insert(
        "add-llm".into(),
        script(
            &mut support(&c),
            &[json!({"op": "add_node", "type": "llm", "config": defaults("llm"), "position": {"x": 0, "y": 0}})],
        ),
    );
    // A paste whose node clashes with the document's: Rust renames it and says so. The
    // fragment is in the form the UI's clipboard reader gives (`lib/clipboard.ts`).
    scripts.insert(
        "paste-agent".into(),
        script(
            &mut support(&c),
            &[json!({"op": "paste", "at": {"x": 0, "y": 0}, "fragment": {
                "name": null,
                "channels": {},
                "nodes": [{"id": "agent", "type": "llm", "config": {"model": "claude-opus-4-8", "tools": ["search"]}}],
                "edges": [],
                "layout": {"positions": {"agent": {"x": 0, "y": 120}}},
            }})],
        ),
    );
    out.insert("scripts".into(), Value::Object(scripts));

    // The Weaveflow version setting: an accepted value (trimmed) and the refusal of an empty one.
    let fs = FakeFs::new();
    let mut ws = Workspace::new(Arc::new(fs), Arc::new(c.clone()), &PathBuf::from("/data"), builtin_loader());
    let refused = ws.set_weaveflow_version("   ").expect_err("an empty version is refused");
    ws.set_weaveflow_version(" 2.0 ").expect("a version is accepted");
    out.insert(
        "weaveflowVersion".into(),
        json!({"default": "1.0", "set": " 2.0 ", "inForce": ws.weaveflow_version(), "empty": "   ", "refused": {"message": refused.message, "diagnostics": [refused]}}),
    );

    // What exporting the example as Weaveflow answers before anything is written.
    for (key, to) in [
        ("exportExampleToWeaveflow", DocFormat::Weaveflow),
        ("exportExampleToGraphmd", DocFormat::GraphMd),
        ("exportExampleToGraphspec", DocFormat::GraphSpec),
    ] {
        let converted = convert_document(example(&c).document(), to);
        out.insert(key.into(), serde_json::to_value(&converted).expect("export serializes"));
    }

    // The operators the condition builder offers are Rust's (`PredicateOperator`).
    out.insert("operators".into(), json!(crate::drawn_edges::PredicateOperator::ALL));

    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../ui/src/test/fixtures/documents.json");
    std::fs::create_dir_all(path.parent().expect("a folder")).expect("fixture folder");
    let text = serde_json::to_string_pretty(&Value::Object(out)).expect("fixture serializes") + "\n";
    std::fs::write(&path, text).expect("fixture written");
}
