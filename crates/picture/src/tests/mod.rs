//! Pictures of real and generated documents, checked by parsing them with a real XML parser
//! (roxmltree, which usvg itself uses) and by decoding the PNGs (the png crate).

mod annotations;
mod corpus;
mod hostile;
mod large;
mod png_size;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use trellis_doc::{DocId, Registries, Session, SystemClock};

use crate::{Scene, Scope, Theme};

/// `../shared/corpus` beside the repository.
pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
}

/// A session over `text` with the built-in types, as the app opens a file named `name`.
pub fn open(name: &str, text: &str) -> Result<Session, Vec<trellis_spec::Diagnostic>> {
    let registries = Registries::new(trellis_spec::builtin::default_registry());
    let mut s = Session::from_text(DocId(1), Some(name), text, registries, Arc::new(SystemClock))?;
    s.lay_out_if_missing();
    Ok(s)
}

pub fn svg(session: &Session, scope: &Scope, theme: Theme) -> String {
    let scene = Scene::of(session, scope).expect("a scene");
    crate::svg::render(&scene, &theme.palette())
}

/// What a parsed picture holds.
#[derive(Debug, Default)]
pub struct Parsed {
    /// Per node card: its `data-id`, its `<title>` and its visible name.
    pub nodes: Vec<(String, String, String)>,
    /// Per edge: `(data-from, data-to)`.
    pub edges: Vec<(String, String)>,
    /// The full text of every edge label (its `<title>`).
    pub labels: Vec<String>,
    pub view_box: Vec<f64>,
    pub marks: Vec<String>,
}

/// Parses an SVG (panics with the parser's reason when it is not well-formed XML).
pub fn parse(svg: &str) -> Parsed {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not well-formed: {e}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.tag_name().namespace(), Some("http://www.w3.org/2000/svg"));
    let mut out = Parsed {
        view_box: root
            .attribute("viewBox")
            .expect("a viewBox")
            .split(' ')
            .map(|v| v.parse::<f64>().expect("a number"))
            .collect(),
        ..Parsed::default()
    };
    for n in root.descendants().filter(|n| n.is_element()) {
        // Self-contained: nothing refers outside the file.
        for a in n.attributes() {
            let v = a.value();
            assert!(
                !(a.name() == "href" || v.contains("url(") && !v.starts_with("url(#")),
                "an outside reference: {}={v}",
                a.name()
            );
        }
        let class = n.attribute("class").unwrap_or_default();
        let child_text = |tag: &str, cls: Option<&str>| {
            n.children()
                .find(|c| c.has_tag_name(tag) && cls.is_none_or(|k| c.attribute("class") == Some(k)))
                .map(|c| c.text().unwrap_or_default().to_string())
                .unwrap_or_default()
        };
        match class {
            "node" => out.nodes.push((
                n.attribute("data-id").unwrap_or_default().to_string(),
                child_text("title", None),
                child_text("text", Some("name")),
            )),
            "edge" => out.edges.push((
                n.attribute("data-from").unwrap_or_default().to_string(),
                n.attribute("data-to").unwrap_or_default().to_string(),
            )),
            "edge-label" => out.labels.push(child_text("title", None)),
            "start" | "end" => out.marks.push(class.to_string()),
            _ => {}
        }
    }
    out
}
