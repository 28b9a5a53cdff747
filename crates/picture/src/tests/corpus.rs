//! Every corpus document that opens in the app gives a picture that parses and names every
//! node, in both themes.

use std::collections::BTreeSet;

use super::{corpus_dir, open, parse, svg};
use crate::xml::readable;
use crate::{Scope, Theme};

fn documents() -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![corpus_dir()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "json")
                || p.file_name().is_some_and(|n| n == "GRAPH.md")
            {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_corpus_document_draws_every_node_name_in_a_well_formed_svg() {
    let mut drawn = 0;
    let mut formats = BTreeSet::new();
    for path in documents() {
        let text = std::fs::read_to_string(&path).expect("read");
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        // A file the app refuses to open (not a graph) has no picture either.
        let Ok(session) = open(&name, &text) else { continue };
        formats.insert(format!("{:?}", session.format()));
        let projection = trellis_doc::formats::view::display_spec(session.document());
        let spec = session.spec().or(projection.as_ref()).expect("a spec");
        let want: BTreeSet<String> = spec
            .nodes
            .iter()
            .map(|n| readable(&n.id))
            .filter(|id| id != "__start__" && id != "__end__")
            .collect();
        for theme in [Theme::Light, Theme::Dark] {
            let parsed = parse(&svg(&session, &Scope::Whole, theme));
            let got: BTreeSet<String> = parsed.nodes.iter().map(|n| n.0.clone()).collect();
            assert_eq!(got, want, "{}: every node", path.display());
            assert_eq!(parsed.nodes.len(), want.len(), "{}: each node once", path.display());
            for (id, title, shown) in &parsed.nodes {
                assert_eq!(title, id, "{}: the card's title is its name", path.display());
                let visible = shown.trim_end_matches('…');
                assert!(
                    id.starts_with(visible) && !visible.is_empty(),
                    "{}: {shown:?} shows {id:?}",
                    path.display()
                );
            }
            // Every document edge whose ends exist is drawn (plus the drawn-only ones).
            let ends = |e: &trellis_spec::EdgeSpec| {
                [&e.from, &e.to]
                    .iter()
                    .all(|x| want.contains(x.as_str()) || *x == "__start__" || *x == "__end__")
            };
            let real = spec.edges.iter().filter(|e| ends(e)).count();
            assert!(
                parsed.edges.len() >= real,
                "{}: {} edges drawn of {real}",
                path.display(),
                parsed.edges.len()
            );
        }
        drawn += 1;
    }
    assert!(drawn >= 20, "only {drawn} corpus documents opened");
    assert_eq!(formats.len(), 3, "all three formats drawn: {formats:?}");
}

#[test]
fn condition_labels_and_marks_are_drawn_in_all_three_formats() {
    let read = |rel: &str| std::fs::read_to_string(corpus_dir().join(rel)).expect("read");
    // GraphSpec: the guards in the Mermaid style.
    let s = open("support.json", trellis_doc::workspace::EXAMPLE).expect("opens");
    let p = parse(&svg(&s, &Scope::Whole, Theme::Light));
    let guards: Vec<String> = s
        .spec()
        .expect("graphspec")
        .edges
        .iter()
        .filter_map(|e| e.when.as_ref().map(trellis_spec::predicate::label))
        .collect();
    assert!(!guards.is_empty());
    for g in &guards {
        assert!(p.labels.contains(g), "label {g:?} in {:?}", p.labels);
    }
    assert_eq!(p.marks, ["start", "end"]);
    // Weaveflow: entry and finish drawn from and to the marks, conditions labelled.
    let s = open("supervisor_mode.json", &read("weaveflow/supervisor_mode.json")).expect("opens");
    let p = parse(&svg(&s, &Scope::Whole, Theme::Dark));
    assert!(p.edges.iter().any(|e| e.0 == "__start__"), "entry drawn: {:?}", p.edges);
    assert!(!p.labels.is_empty(), "weaveflow conditions labelled");
    // GRAPH.md: the entry, the exits, conditions.
    let s = open("GRAPH.md", &read("graphmd/support-triage/GRAPH.md")).expect("opens");
    let p = parse(&svg(&s, &Scope::Whole, Theme::Light));
    assert!(p.edges.iter().any(|e| e.0 == "__start__") && p.edges.iter().any(|e| e.1 == "__end__"));
    assert!(!p.labels.is_empty(), "GRAPH.md conditions labelled");
}

#[test]
fn the_themes_differ_in_colour_only() {
    let text = trellis_doc::workspace::EXAMPLE;
    let s = open("support.json", text).expect("opens");
    let light = svg(&s, &Scope::Whole, Theme::Light);
    let dark = svg(&s, &Scope::Whole, Theme::Dark);
    assert_ne!(light, dark);
    assert!(light.contains(crate::theme::LIGHT.background) && dark.contains(crate::theme::DARK.background));
    let (l, d) = (parse(&light), parse(&dark));
    assert_eq!(l.nodes, d.nodes);
    assert_eq!(l.edges, d.edges);
    assert_eq!(l.view_box, d.view_box);
}
