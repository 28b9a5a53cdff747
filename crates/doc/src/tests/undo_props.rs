//! Property: any sequence of edits (refused ones included) undone step by step gives back the
//! original text and layout exactly, and redoing them all gives the edited state again.

use proptest::prelude::*;
use serde_json::json;

use super::*;
use crate::edit::{Edit, Position};

const IDS: [&str; 8] = ["classify", "answer", "reply", "open_ticket", "n1", "n2", "__start__", "__end__"];
const CHANNELS: [&str; 4] = ["intent", "messages", "c1", "c2"];

fn id() -> impl Strategy<Value = String> {
    prop::sample::select(&IDS[..]).prop_map(str::to_owned)
}

fn channel() -> impl Strategy<Value = String> {
    prop::sample::select(&CHANNELS[..]).prop_map(str::to_owned)
}

fn pos() -> impl Strategy<Value = Position> {
    (-500i32..500, -500i32..500).prop_map(|(x, y)| Position { x: f64::from(x), y: f64::from(y) })
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (prop::option::of(id()), pos()).prop_map(|(id, position)| Edit::AddNode { id, type_name: "noop".into(), config: None, position }),
        prop::collection::vec(id(), 1..3).prop_map(|ids| Edit::RemoveNodes { ids }),
        (id(), id()).prop_map(|(from, to)| Edit::RenameNode { from, to }),
        (id(), prop::sample::select(&["llm", "noop", "wait"][..])).prop_map(|(id, t)| Edit::SetNodeType { id, type_name: t.into() }),
        (id(), prop::sample::select(&["/a", "/b/c", "/model", "/labels/0"][..]), prop::option::of(0i32..5))
            .prop_map(|(id, p, v)| Edit::SetConfigField { id, path: p.into(), value: v.map(|v| json!(v)) }),
        (id(), id(), prop::option::of(channel())).prop_map(|(from, to, c)| Edit::Connect {
            from,
            to,
            when: c.map(|c| trellis_spec::Predicate::from(json!({"channel": c, "truthy": true}).as_object().cloned().unwrap_or_default()))
        }),
        (0usize..12).prop_map(|index| Edit::Disconnect { index }),
        (0usize..12, prop::option::of(channel())).prop_map(|(index, c)| Edit::SetWhen {
            index,
            when: c.map(|c| trellis_spec::Predicate::from(json!({"channel": c, "eq": 1}).as_object().cloned().unwrap_or_default()))
        }),
        channel().prop_map(|name| Edit::AddChannel { name, reducer: trellis_spec::ReducerName::Append }),
        (channel(), channel()).prop_map(|(from, to)| Edit::RenameChannel { from, to }),
        channel().prop_map(|name| Edit::RemoveChannel { name }),
        prop::option::of("[a-z]{0,4}").prop_map(|name| Edit::RenameGraph { name }),
        (id(), pos()).prop_map(|(id, p)| Edit::MoveNodes { positions: [(id, p)].into_iter().collect(), notes: Default::default(), groups: Default::default() }),
        pos().prop_map(|at| Edit::Paste {
            fragment: json!({"nodes": [{"id": "answer", "type": "noop"}, {"id": "n1", "type": "noop"}], "edges": [{"from": "answer", "to": "n1"}, {"from": "n1", "to": "classify"}]}),
            at: Some(at)
        }),
        (id(), pos()).prop_map(|(id, p)| Edit::ApplyLayout { positions: [(id, p)].into_iter().collect(), automatic: false }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
    #[test]
    fn undo_all_restores_and_redo_all_replays(edits in prop::collection::vec(edit(), 1..25), gaps in prop::collection::vec(0u64..1500, 25)) {
        let c = clock();
        let mut s = example_session(&c);
        for (e, gap) in edits.iter().zip(gaps) {
            let _ = s.apply(e);
            c.advance(gap);
        }
        let edited = s.text();
        let edited_layout = s.layout().clone();
        while s.can_undo() {
            s.undo();
        }
        prop_assert_eq!(s.text(), EXAMPLE);
        prop_assert!(s.layout().positions.is_empty());
        prop_assert!(!s.is_dirty());
        while s.can_redo() {
            s.redo();
        }
        prop_assert_eq!(s.text(), edited);
        prop_assert_eq!(s.layout().positions.clone(), edited_layout.positions);
    }
}

/// True when some step of the history is a whole-document snapshot.
fn has_snapshot(s: &Session) -> bool {
    s.history.undo.iter().chain(&s.history.redo).any(|step| crate::history::is_snapshot(&step.prims))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]
    /// Weaveflow and GRAPH.md (and GraphSpec again, through the same recipes): every edit is
    /// a list of small reversible steps, never a snapshot; undoing them all gives back the
    /// very document read (text, diagnostics with their places, layout), redoing them all
    /// the edited one, and neither answers "reload everything".
    #[test]
    fn every_format_undoes_and_redoes_by_steps(recipes in prop::collection::vec(super::delta::recipe(), 1..40)) {
        let c = clock();
        for (format, mut s) in super::delta::sessions(&c) {
            let (text, diagnostics, layout) = (s.text(), s.diagnostics().to_vec(), s.layout().clone());
            for r in &recipes {
                c.advance(if r.v % 2 == 0 { 300 } else { 1_500 });
                if let Some(e) = super::delta::change_of(&s, *r) {
                    let _ = s.apply(&e);
                }
            }
            prop_assert!(!has_snapshot(&s), "{format}: an edit was recorded as a snapshot");
            let (edited, edited_diagnostics, edited_layout) = (s.text(), s.diagnostics().to_vec(), s.layout().clone());
            let edited_document = s.document().clone();
            while s.can_undo() {
                let undone = s.undo();
                prop_assert!(!undone.changed.full, "{format}: an undo answered a full reload");
            }
            prop_assert_eq!(s.text(), text, "{}: undo all", format);
            prop_assert_eq!(s.diagnostics(), diagnostics.as_slice(), "{}: diagnostics after undo all", format);
            prop_assert_eq!(s.layout(), &layout, "{}: layout after undo all", format);
            prop_assert!(!s.is_dirty());
            while s.can_redo() {
                let redone = s.redo();
                prop_assert!(!redone.changed.full, "{format}: a redo answered a full reload");
            }
            prop_assert_eq!(s.text(), edited, "{}: redo all", format);
            prop_assert!(s.document() == &edited_document, "{format}: the document after redo all");
            prop_assert_eq!(s.diagnostics(), edited_diagnostics.as_slice(), "{}: diagnostics after redo all", format);
            prop_assert_eq!(s.layout().positions.clone(), edited_layout.positions, "{}: positions after redo all", format);
        }
    }
}

/// A Weaveflow and a GRAPH.md field edit is recorded as the field that changed (not a copy of
/// the document), typing into it within a second stays one step, and undoing it answers the
/// one node it touched.
#[test]
fn a_field_edit_is_a_small_step_and_undo_answers_the_node() {
    let c = clock();
    for (format, mut s) in super::delta::sessions(&c).into_iter().skip(1) {
        let id = s.document().node_ids()[0].to_owned();
        for v in ["a", "ab", "abc"] {
            let e = Edit::SetConfigField { id: id.clone(), path: "/model".into(), value: Some(json!(v)) };
            s.apply(&e).expect("applies");
            c.advance(300);
        }
        assert_eq!(s.history.undo.len(), 1, "{format}: typing is one step");
        let prims = &s.history.undo[0].prims;
        assert!(!crate::history::is_snapshot(prims), "{format}");
        // The first keystroke adds the field, the next two fold into one change of it
        // (Weaveflow: the raw value's and the typed node's, each).
        assert!(
            prims.iter().all(|p| matches!(p, crate::history::Prim::Format(_))) && prims.len() <= 4,
            "{format}: {prims:?}"
        );
        let undone = s.undo();
        assert!(!undone.changed.full, "{format}");
        assert_eq!(undone.changed.node_edits.len(), 1, "{format}");
        assert_eq!(undone.changed.node_edits[0].insert.len(), 1, "{format}");
        assert_eq!(undone.changed.node_edits[0].insert[0].id, id, "{format}");
        assert!(undone.changed.edge_edits.is_empty(), "{format}");
        let redone = s.redo();
        assert_eq!(
            redone.changed.node_edits[0].insert[0].config.get("model"),
            Some(&json!("abc")),
            "{format}"
        );
    }
}
