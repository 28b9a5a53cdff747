//! The text pane as a view of the document: after any sequence of canvas edits, undos, redos
//! and typing (text that reads and text that does not), in every format, the pane's text
//! rebuilt from the answers' updates is exactly the session's text, the canvas is what that
//! text reads as (while it reads), the view rebuilt from the deltas is the full view, and a
//! save writes the pane's text (GraphSpec: its canonical form).

use std::path::Path;
use std::sync::Arc;

use proptest::prelude::*;
use serde_json::{json, Value};

use super::delta::{apply_delta, change_of, recipe, sessions, view_of, Recipe};
use super::{clock, registries};
use crate::clock::ManualClock;
use crate::delta::Change;
use crate::document::{DocId, Document};
use crate::formats::view::canvas_spec;
use crate::fs::FakeFs;
use crate::session::Session;
use crate::text::{TextDelta, TextEdit, TextUpdate};
use crate::text_changes::offsets::to_bytes;
use crate::workspace::EXAMPLE;

/// What the pane holds: its text and version, rebuilt from what it is sent only.
pub(super) struct Pane {
    pub text: String,
    pub version: u64,
}

impl Pane {
    pub(super) fn open(s: &mut Session) -> Pane {
        let v = s.open_text();
        Pane { text: v.text, version: v.version }
    }

    /// Applies one update's changes (UTF-16 places of the text before it).
    fn apply_update(text: &str, u: &TextUpdate) -> String {
        let places: Vec<u32> = u.changes.iter().flat_map(|c| [c.from, c.to]).collect();
        assert_eq!(u.length, cm_len(text), "the update's length");
        let bytes = to_bytes(text, &places).expect("places inside the text");
        let mut out = String::new();
        let mut at = 0;
        for (c, r) in u.changes.iter().zip(bytes.chunks(2)) {
            out.push_str(&text[at..r[0]]);
            out.push_str(&c.insert);
            at = r[1];
        }
        out.push_str(&text[at..]);
        out
    }

    /// Takes an answer's text part, as the UI does (its own echoed updates are already applied).
    pub(super) fn take(&mut self, d: &TextDelta, own: &[Vec<crate::text::TextChange>]) {
        if let Some(reset) = &d.reset {
            self.text = reset.clone();
            self.version = d.to;
            return;
        }
        assert_eq!(d.from, self.version, "an answer from the version the pane is at");
        let mut own = own.iter();
        for u in &d.updates {
            if u.client == "pane" {
                own.next().expect("an echo of the pane's own update");
            } else {
                self.text = Pane::apply_update(&self.text, u);
            }
            self.version += 1;
        }
    }
}

/// The editor's length of a text (UTF-16 units, a `\r\n` as one).
fn cm_len(text: &str) -> u32 {
    (text.encode_utf16().count() - text.matches("\r\n").count()) as u32
}

/// A typing step: a few characters at a place picked by the recipe, from the text as it is
/// (places in the editor's units, as the pane sends them).
fn typing(pane: &Pane, r: Recipe) -> Vec<crate::text::TextChange> {
    let text = &pane.text;
    let boundary = |mut i: usize| {
        i = i.min(text.len());
        while i > 0
            && (!text.is_char_boundary(i)
                || (text.as_bytes()[i - 1] == b'\r' && text.as_bytes().get(i) == Some(&b'\n')))
        {
            i -= 1;
        }
        i
    };
    let n = text.len();
    let at = if n == 0 { 0 } else { boundary((r.a * 7919 + r.b * 104_729) % n) };
    let end = boundary(at + r.b % 3).max(at);
    let insert = match r.v.rem_euclid(6) {
        0 => "",
        1 => "x",
        2 => "\"",
        3 => ",",
        4 => "1",
        _ => "}",
    };
    // Never a change that changes nothing (the editor sends none).
    let insert = if insert.is_empty() && end == at { "x" } else { insert };
    let units = crate::text_changes::offsets::to_utf16(text, &[at, end]);
    vec![crate::text::TextChange { from: units[0], to: units[1], insert: insert.into() }]
}

/// Checks that hold after every step.
fn check(s: &Session, pane: &Pane, format: &str, n: usize) -> Result<(), TestCaseError> {
    let held = s.text_pane.text.as_deref().expect("the pane's text is kept");
    prop_assert_eq!(&pane.text, held, "{}, step {}: the pane's text is the session's", format, n);
    if s.text_error().is_none() {
        let reading = match s.document() {
            Document::GraphSpec(_) => trellis_spec::parse_spec(held).spec.map(Document::GraphSpec),
            Document::Weaveflow(_) => trellis_formats::weaveflow::parse(held).doc.map(Document::Weaveflow),
            Document::GraphMd(_) => trellis_formats::graphmd::read(held).doc.map(Document::GraphMd),
        };
        let reading = reading.expect("a text without error reads");
        prop_assert_eq!(
            canvas_spec(&reading).into_owned(),
            canvas_spec(s.document()).into_owned(),
            "{}, step {}: the canvas is what the text reads as",
            format,
            n
        );
        if !matches!(s.document(), Document::GraphSpec(_)) || s.text_pane.writer_text {
            prop_assert_eq!(held, s.text(), "{}, step {}: the text is what a save writes", format, n);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4, ..ProptestConfig::default() })]
    #[test]
    fn the_pane_follows_every_change_and_the_canvas_follows_the_text(
        recipes in prop::collection::vec(recipe(), 120),
        typed in prop::collection::vec(any::<bool>(), 120),
    ) {
        let c = clock();
        for (format, mut s) in sessions(&c) {
            let mut pane = Pane::open(&mut s);
            let mut held = view_of(&s);
            for (n, (r, typed)) in recipes.iter().zip(&typed).enumerate() {
                c.advance(if r.v % 2 == 0 { 300 } else { 1_500 });
                let (answer, own) = if *typed {
                    let changes = typing(&pane, *r);
                    // The pane applies its own typing at once.
                    let u = TextUpdate { client: "pane".into(), length: cm_len(&pane.text), changes: changes.clone() };
                    pane.text = Pane::apply_update(&pane.text, &u);
                    let edit = TextEdit { client: "pane".into(), version: pane.version, updates: vec![changes.clone()] };
                    (s.answer(Change::Text(&edit)), vec![changes])
                } else {
                    let change = change_of(&s, *r);
                    let answer = match (&change, r.kind % 2) {
                        (Some(e), _) => s.answer(Change::Edit(e)),
                        (None, 0) => s.answer(Change::Undo),
                        (None, _) => s.answer(Change::Redo),
                    };
                    (answer, Vec::new())
                };
                let Ok(delta) = answer else {
                    prop_assert!(!*typed, "{format}, step {n}: typing is never refused");
                    check(&s, &pane, format, n)?;
                    continue;
                };
                let text = delta.text.clone().expect("an open pane gets the text part");
                pane.take(&text, &own);
                apply_delta(&mut held, &serde_json::to_value(&delta).expect("delta serializes"));
                let full = view_of(&s);
                prop_assert!(held == full, "{format}, step {n}: the delta gave\n{held:#}\nbut the view is\n{full:#}");
                check(&s, &pane, format, n)?;
            }
        }
    }
}

fn answer_text(
    s: &mut Session,
    pane: &mut Pane,
    changes: Vec<crate::text::TextChange>,
) -> crate::delta::ViewDelta {
    let u = TextUpdate { client: "pane".into(), length: cm_len(&pane.text), changes: changes.clone() };
    pane.text = Pane::apply_update(&pane.text, &u);
    let edit = TextEdit { client: "pane".into(), version: pane.version, updates: vec![changes.clone()] };
    let delta = s.answer(Change::Text(&edit)).expect("typing is taken");
    pane.take(delta.text.as_ref().expect("text part"), &[changes]);
    delta
}

/// The change that replaces the first `old` in the pane's text by `new`.
fn replacing(pane: &Pane, old: &str, new: &str) -> Vec<crate::text::TextChange> {
    let at = pane.text.find(old).unwrap_or_else(|| panic!("{old:?} in the text"));
    let units = crate::text_changes::offsets::to_utf16(&pane.text, &[at, at + old.len()]);
    vec![crate::text::TextChange { from: units[0], to: units[1], insert: new.into() }]
}

fn edit(
    s: &mut Session,
    pane: &mut Pane,
    e: Value,
) -> Result<crate::delta::ViewDelta, trellis_spec::Diagnostic> {
    let e = serde_json::from_value(e).expect("an edit");
    let delta = s.answer(Change::Edit(&e))?;
    pane.take(delta.text.as_ref().expect("text part"), &[]);
    Ok(delta)
}

fn example(c: &ManualClock) -> (FakeFs, Session) {
    super::opened_example(c)
}

#[test]
fn a_canvas_edit_changes_only_its_characters_and_a_move_changes_no_text() {
    let c = clock();
    let (_, mut s) = example(&c);
    let mut pane = Pane::open(&mut s);
    assert_eq!(pane.text, EXAMPLE, "the pane shows the file as a save writes it");
    let d = edit(
        &mut s,
        &mut pane,
        json!({"op": "set_config_field", "id": "classify", "path": "/temperature", "value": 0.5}),
    )
    .unwrap();
    let t = d.text.unwrap();
    assert_eq!(t.updates.len(), 1);
    let change = &t.updates[0].changes;
    assert_eq!(change.len(), 1, "{change:?}");
    assert!(change[0].insert.len() < 40, "only the new field's characters: {change:?}");
    assert_eq!(pane.text, s.text());
    let before = pane.version;
    let d = edit(&mut s, &mut pane, json!({"op": "move_nodes", "positions": {"classify": {"x": 5, "y": 9}}}))
        .unwrap();
    assert!(d.text.unwrap().updates.is_empty(), "a GraphSpec node's position is not in its text");
    assert_eq!(pane.version, before);
}

#[test]
fn typing_changes_the_canvas_and_undo_from_the_canvas_takes_it_back() {
    let c = clock();
    let (_, mut s) = example(&c);
    let mut pane = Pane::open(&mut s);
    let original = pane.text.clone();
    let changes = replacing(&pane, "\"model\": \"claude-opus-4-8\"", "\"model\": \"gpt-5\"");
    let d = answer_text(&mut s, &mut pane, changes);
    assert_eq!(d.nodes.len(), 1, "one node's list edit, not a redraw: {:?}", d.nodes);
    assert!(d.dirty && d.can_undo);
    let model = s.spec().unwrap().nodes.iter().find_map(|n| n.config.get("model").cloned());
    assert_eq!(model, Some(json!("gpt-5")));
    let d = s.answer(Change::Undo).unwrap();
    pane.take(d.text.as_ref().unwrap(), &[]);
    assert_eq!(pane.text, original, "undo from the canvas gives the text back byte for byte");
    assert!(!d.dirty);
    let d = s.answer(Change::Redo).unwrap();
    pane.take(d.text.as_ref().unwrap(), &[]);
    assert!(pane.text.contains("gpt-5"));
}

#[test]
fn a_text_that_does_not_read_keeps_the_canvas_refuses_edits_and_saves_until_fixed() {
    let c = clock();
    let (fs, mut s) = example(&c);
    let mut pane = Pane::open(&mut s);
    let spec_before = s.spec().unwrap().clone();
    let broken =
        replacing(&pane, "\"model\": \"claude-opus-4-8\"", "\"model\": \"claude-opus-4-8\" \"oops\"");
    let d = answer_text(&mut s, &mut pane, broken);
    let error = d.text.as_ref().unwrap().error.clone().expect("the reader's error");
    assert!(error.to > error.from || error.from > 0, "at its place: {error:?}");
    assert!(d.text_error.is_some(), "the canvas is marked behind");
    assert_eq!(s.spec().unwrap(), &spec_before, "the canvas keeps the last reading");
    assert!(d.dirty, "the typing is unsaved work");
    let refused = edit(&mut s, &mut pane, json!({"op": "rename_graph", "name": "x"})).unwrap_err();
    assert_eq!(refused.code, crate::text::codes::UNREADABLE);
    let span = error.diagnostic.span.expect("line and column");
    let not_saved = crate::save::save(&fs, &mut s).unwrap_err();
    assert!(
        not_saved.diagnostics[0].message.contains(&format!("line {}, column {}", span.line, span.column)),
        "{:?}",
        not_saved.diagnostics
    );
    assert_eq!(fs.get("/w/support.json").as_deref(), Some(EXAMPLE.as_bytes()), "nothing written");
    let entry = crate::journal::Journal::entry_of("k", &s, 0);
    assert_eq!(entry.pane_text.as_deref(), Some(pane.text.as_str()), "the journal keeps the text");
    // Fixed: the canvas catches up.
    let fix = replacing(&pane, " \"oops\"", "");
    let d = answer_text(&mut s, &mut pane, fix);
    assert!(d.text.unwrap().error.is_none() && d.text_error.is_none());
    assert!(crate::save::save(&fs, &mut s).is_ok());
}

#[test]
fn the_users_own_formatting_stays_until_a_save_writes_the_canonical_form() {
    let c = clock();
    let (fs, mut s) = example(&c);
    let mut pane = Pane::open(&mut s);
    let compact = replacing(&pane, "\"name\": \"support-agent\"", "\"name\":   \"support-agent\"");
    answer_text(&mut s, &mut pane, compact);
    assert!(!s.text_pane.writer_text);
    edit(
        &mut s,
        &mut pane,
        json!({"op": "set_config_field", "id": "classify", "path": "/temperature", "value": 1}),
    )
    .unwrap();
    assert!(pane.text.contains("\"name\":   \"support-agent\""), "a canvas edit keeps the user's spacing");
    assert!(pane.text.contains("\"temperature\": 1"));
    let out = crate::save::save(&fs, &mut s).expect("saves");
    let written = String::from_utf8(fs.get("/w/support.json").unwrap()).unwrap();
    assert_eq!(written, s.text(), "the save writes the canonical text");
    let d = s.text_since(pane.version);
    pane.take(&d, &[]);
    assert_eq!(pane.text, written, "the pane shows what was written");
    assert!(d.notice.is_some(), "and says so once");
    assert!(out.bytes > 0);
}

#[test]
fn a_stale_change_is_not_applied_and_the_answer_brings_what_was_missed() {
    let c = clock();
    let (_, mut s) = example(&c);
    let mut pane = Pane::open(&mut s);
    let base = pane.version;
    let e = serde_json::from_value(json!({"op": "rename_graph", "name": "other"})).unwrap();
    s.answer(Change::Edit(&e)).unwrap();
    let stale = TextEdit {
        client: "pane".into(),
        version: base,
        updates: vec![replacing(&pane, "support-agent", "x")],
    };
    let d = s.answer(Change::Text(&stale)).unwrap();
    let t = d.text.unwrap();
    assert_eq!(t.from, base);
    assert_eq!(t.updates.len(), 1, "the canvas edit it missed");
    assert_eq!(t.updates[0].client, crate::text::TRELLIS);
    assert_eq!(s.spec().unwrap().name.as_deref(), Some("other"), "the stale change was not applied");
    pane.take(&t, &[]);
    assert_eq!(pane.text, s.text());
}

#[test]
fn selecting_finds_the_elements_text_and_the_cursor_finds_the_element() {
    let c = clock();
    let (_, mut s) = example(&c);
    let pane = Pane::open(&mut s);
    let node = trellis_spec::Element::Node { id: "classify".into() };
    let r = s.text_range_of(pane.version, &node).expect("a range");
    let units: Vec<u16> = pane.text.encode_utf16().collect();
    let inside = String::from_utf16(&units[r.from as usize..r.to as usize]).unwrap();
    assert!(inside.starts_with('{') && inside.contains("\"id\": \"classify\""), "{inside}");
    assert_eq!(s.text_element_at(pane.version, r.from + 3), Some(node));
    let edge = s.text_range_of(
        pane.version,
        &trellis_spec::Element::Edge { index: 1, from: String::new(), to: String::new() },
    );
    let e = edge.expect("an edge's range");
    assert!(matches!(
        s.text_element_at(pane.version, e.from + 1),
        Some(trellis_spec::Element::Edge { index: 1, .. })
    ));
    assert_eq!(s.text_element_at(pane.version + 1, r.from), None, "another version: asked again later");
}

#[test]
fn problems_are_placed_where_their_pointer_is_and_follow_the_problems() {
    let c = clock();
    let fs = FakeFs::new();
    fs.put("/w/odd.json", EXAMPLE.replacen("\"type\": \"llm\"", "\"type\": \"no_such_type\"", 1));
    let mut s =
        Session::open(&fs, DocId(1), Path::new("/w/odd.json"), registries(), Arc::new(c.clone())).unwrap();
    let v = s.open_text();
    let offset = s.registries().diagnostics.len();
    assert_eq!(v.marks.len(), offset + s.diagnostics().len(), "one place per problem of the view");
    let unknown = s.diagnostics().iter().position(|d| d.code == "spec/unknown-type").expect("the finding");
    let units: Vec<u16> = v.text.encode_utf16().collect();
    let placed =
        |r: &crate::text::TextRange| String::from_utf16(&units[r.from as usize..r.to as usize]).unwrap();
    let mark = v.marks[offset + unknown].expect("placed");
    assert!(placed(&mark).contains("no_such_type"), "{}", placed(&mark));
    // A new problem (a node of another unknown type): its place comes with it.
    let mut pane = Pane { text: v.text.clone(), version: v.version };
    let id = s.spec().unwrap().nodes[0].id.to_string();
    let d =
        edit(&mut s, &mut pane, json!({"op": "set_node_type", "id": id, "type": "also_unknown"})).unwrap();
    let problems = d.diagnostics.expect("the problems changed");
    let places = d.text.unwrap().mark_edit.expect("their places came along");
    assert_eq!(
        (places.at, places.remove, places.insert.len()),
        (problems.at, problems.remove, problems.insert.len())
    );
    let units: Vec<u16> = pane.text.encode_utf16().collect();
    let new_unknown = problems
        .insert
        .iter()
        .position(|d| d.code == "spec/unknown-type" && d.message.contains("also_unknown"));
    let r = places.insert[new_unknown.expect("the new finding")].expect("placed");
    assert!(String::from_utf16(&units[r.from as usize..r.to as usize]).unwrap().contains("also_unknown"));
}

#[test]
fn weaveflow_and_graphmd_keep_their_own_text() {
    let c = clock();
    for (format, mut s) in sessions(&c) {
        let mut pane = Pane::open(&mut s);
        assert_eq!(pane.text, s.text(), "{format}");
        match format {
            "weaveflow" => {
                let id = s.document().node_ids()[0].to_owned();
                let before = pane.text.clone();
                edit(
                    &mut s,
                    &mut pane,
                    json!({"op": "set_node_field", "id": id, "field": "description", "value": "typed"}),
                )
                .unwrap();
                let changed = crate::text_changes::diff::hunks(&before, &pane.text);
                assert_eq!(changed.len(), 1, "one change");
                let lines = pane.text[changed[0].new.clone()].matches('\n').count();
                assert!(lines <= 1, "one line: {:?}", &pane.text[changed[0].new.clone()]);
                // And the same change typed: the canvas follows.
                let typed = replacing(&pane, "\"typed\"", "\"typed again\"");
                answer_text(&mut s, &mut pane, typed);
                assert_eq!(s.text(), pane.text, "{format}: a save writes the typed text");
                let node = &s.weaveflow().unwrap().definition().nodes[0];
                assert_eq!(node.description, "typed again");
            }
            "graphmd" => {
                let end = cm_len(&pane.text);
                let typed = vec![crate::text::TextChange {
                    from: end,
                    to: end,
                    insert: "\nA new paragraph, typed.\n".into(),
                }];
                let d = answer_text(&mut s, &mut pane, typed);
                assert!(d.text_error.is_none(), "{:?}", d.text_error);
                let body = &s.graphmd().unwrap().body;
                assert!(body.ends_with("A new paragraph, typed.\n"), "{body:?}");
                let id = s.document().node_ids()[0].to_owned();
                edit(
                    &mut s,
                    &mut pane,
                    json!({"op": "set_node_field", "id": id, "field": "timeout_ms", "value": 5}),
                )
                .unwrap();
                assert!(
                    pane.text.ends_with("A new paragraph, typed.\n"),
                    "a canvas edit leaves the body byte for byte"
                );
                assert_eq!(pane.text, s.text());
            }
            _ => {}
        }
    }
}

/// Steps per document in the UI's fixture.
const FIXTURE_STEPS: usize = 18;

/// Writes `ui/src/test/fixtures/text-pane.json`: per document (the three formats, and a GRAPH.md
/// with Windows line breaks and characters beyond ASCII), the text the pane opens on, then for
/// each step (a canvas edit, an undo or redo, or typing: the change the pane made) the text part
/// Rust answered and Rust's text after it. `src/test/textPane.test.ts` runs the pane's own
/// protocol code (`textPane/protocol.ts` with `@codemirror/collab`) over them and compares.
#[test]
fn export_fixtures_text_pane() {
    let c = clock();
    let mut docs = sessions(&c);
    let fs = FakeFs::new();
    let crlf = std::fs::read_to_string(
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../formats/tests/fixtures/graphmd/support-triage.GRAPH.md"),
    )
    .expect("fixture")
    .replace("route", "rüte😀")
    .replace('\n', "\r\n");
    fs.put("/w/crlf/GRAPH.md", crlf);
    let crlf = Session::open(&fs, DocId(2), Path::new("/w/crlf/GRAPH.md"), registries(), Arc::new(c.clone()))
        .expect("opens");
    docs.push(("graphmd-crlf", crlf));
    let mut out = serde_json::Map::new();
    for (format, mut s) in docs {
        let mut pane = Pane::open(&mut s);
        let open = json!({"version": pane.version, "text": pane.text});
        let mut steps = Vec::new();
        let mut n = 0usize;
        while steps.len() < FIXTURE_STEPS {
            n += 1;
            c.advance(1_500);
            let r = Recipe { kind: (n * 7 % 30) as u8, a: n * 3, b: n * 5, v: (n % 9) as i32 };
            let (answer, typed) = match n % 4 {
                0 => {
                    let changes = typing(&pane, r);
                    let u = TextUpdate {
                        client: "pane".into(),
                        length: cm_len(&pane.text),
                        changes: changes.clone(),
                    };
                    pane.text = Pane::apply_update(&pane.text, &u);
                    let edit = TextEdit {
                        client: "pane".into(),
                        version: pane.version,
                        updates: vec![changes.clone()],
                    };
                    (s.answer(Change::Text(&edit)), Some(changes))
                }
                1 => (s.answer(Change::Undo), None),
                _ => match change_of(&s, r) {
                    Some(e) => (s.answer(Change::Edit(&e)), None),
                    None => (s.answer(Change::Redo), None),
                },
            };
            let Ok(delta) = answer else { continue };
            let text = delta.text.clone().expect("text part");
            pane.take(&text, typed.as_slice());
            let rust = s.text_pane.text.clone().expect("kept");
            assert_eq!(pane.text, rust, "{format}: the pane follows");
            steps.push(json!({"typed": typed, "delta": text, "text": rust}));
        }
        out.insert(format.into(), json!({"open": open, "steps": steps}));
    }
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../ui/src/test/fixtures/text-pane.json");
    let text = serde_json::to_string(&Value::Object(out)).expect("fixture serializes") + "\n";
    std::fs::write(&path, text).expect("fixture written");
}
