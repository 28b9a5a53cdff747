//! Performance measurements of Trellis.
//!
//! [`generate`] makes documents the *app* accepts as they are: the edge shape of
//! `trellis_spec::generate` (about two edges per node, a third guarded, fan-out, forward skips),
//! but every node typed from the built-in registry with a config of about 150 bytes that its
//! schema accepts, so a 5,000-node document opens with no problem markers (a document with
//! problems saves too, but its markers would be drawn and measured). [`layout_text`] is its layout sidecar: a grid like the one
//! `ui/src/perf/generate.ts` gives the baseline page (`round(sqrt(n))` rows, 290 x 100), so the
//! app and the plain React Flow baseline draw the same number of boxes at the same places.

#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{json, Map, Value};
use trellis_doc::layout::sidecar_path;
use trellis_doc::{Layout, Position};
use trellis_spec::generate::Rng;
use trellis_spec::{GraphSpec, Registry};

/// The built-in types the generated nodes use, in turn.
pub const TYPES: [&str; 6] = ["llm", "http", "classifier", "set_value", "append_message", "noop"];

const MODELS: [&str; 3] = ["claude-opus-4-8", "gpt-5.1-mini", "llama-4-scout"];
const WORDS: [&str; 8] = ["summarize", "classify", "route", "fetch", "answer", "review", "draft", "check"];

fn obj(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

/// A config of about 150 bytes (serialized) that the type's built-in schema accepts.
fn config(type_name: &str, rng: &mut Rng, i: usize) -> Map<String, Value> {
    let w1 = WORDS[rng.below(8) as usize];
    let w2 = WORDS[rng.below(8) as usize];
    let model = MODELS[rng.below(3) as usize];
    obj(match type_name {
        "llm" => json!({
            "model": model,
            "system_prompt": format!("You {w1} support requests for step {i}."),
            "temperature": rng.below(10) as f64 / 10.0,
            "max_tokens": 256 * (1 + rng.below(8)),
            "output_channel": "messages"
        }),
        "http" => json!({
            "url": format!("https://api.example.com/v1/{w1}/{i}"),
            "method": if rng.below(2) == 0 { "GET" } else { "POST" },
            "headers": {"Accept": "application/json"},
            "timeout_ms": 1000 * (1 + rng.below(30)),
            "output_channel": "items"
        }),
        "classifier" => json!({
            "model": model,
            "labels": [w1, format!("{w2}-{i}"), "other"],
            "instructions": format!("Pick the label that fits best (step {i})."),
            "target_channel": "intent"
        }),
        "set_value" => json!({
            "channel": "flags",
            "value": {"step": i, "stage": w1, "reviewed": rng.below(2) == 0, "note": format!("{w2} the result")}
        }),
        "append_message" => json!({
            "channel": "messages",
            "role": "assistant",
            "content": format!("Step {i}: I will {w1} your request and then {w2} the answer for you."),
            "name": "assistant"
        }),
        _ => {
            json!({ "note": format!("Step {i}: a placeholder to {w1} later, kept so reviewers can {w2} the flow and see where it goes.") })
        }
    })
}

/// A valid document of `nodes` nodes (deterministic in `(nodes, seed)`), typed from the
/// built-in registry.
pub fn generate(nodes: usize, seed: u64) -> GraphSpec {
    let mut spec = trellis_spec::generate::generate(nodes, seed);
    let mut rng = Rng::new(seed ^ 0x5EED);
    for (i, node) in spec.nodes.iter_mut().enumerate() {
        let t = TYPES[i % TYPES.len()];
        node.type_name = Some(t.to_owned().into());
        node.config = config(t, &mut rng, i).into();
    }
    spec
}

/// The canonical text of [`generate`].
pub fn generate_text(nodes: usize, seed: u64) -> String {
    trellis_spec::to_canonical_string(&generate(nodes, seed))
}

/// Grid positions like the baseline page's: `round(sqrt(n))` (at least 4) nodes per column,
/// columns 290 apart, rows 100 apart; `__start__` to the left, `__end__` to the right.
pub fn layout(spec: &GraphSpec) -> Layout {
    let n = spec.nodes.len();
    let per_col = ((n as f64).sqrt().round() as usize).max(4);
    let mut l = Layout::default();
    for (i, node) in spec.nodes.iter().enumerate() {
        let p = Position { x: (i / per_col) as f64 * 290.0, y: (i % per_col) as f64 * 100.0 };
        l.positions.insert(node.id.to_string(), p);
    }
    l.positions.insert(trellis_spec::START.to_owned(), Position { x: -290.0, y: 0.0 });
    let cols = n.div_ceil(per_col);
    l.positions.insert(trellis_spec::END.to_owned(), Position { x: cols as f64 * 290.0, y: 0.0 });
    l
}

/// The layout sidecar text of [`layout`].
pub fn layout_text(spec: &GraphSpec) -> String {
    let mut ids: Vec<&str> = spec.nodes.iter().map(|n| n.id.as_str()).collect();
    ids.push(trellis_spec::START);
    ids.push(trellis_spec::END);
    layout(spec).to_text(ids)
}

/// The node types of a user's own runtime (the real-file scenario): no built-in registry
/// describes them, a project registry beside the document does.
pub const OWN_TYPES: [&str; 12] = [
    "planner",
    "web_search",
    "critic",
    "summarizer",
    "router",
    "retriever",
    "ranker",
    "writer",
    "reviewer",
    "invoke_api",
    "memory_store",
    "guard",
];

/// A document as a user brings it: the edge shape of [`generate`], every node of one
/// of the [`OWN_TYPES`] (type `k` always with the config shape of the built-in `TYPES[k % 6]`,
/// so the schemas are stable), **no layout sidecar**, and beside it `project.registry.json`,
/// what `trellis registry infer` writes for it (so the document opens with no error).
/// Answers the document's path (`real-<nodes>.json`).
pub fn write_real_file(dir: &Path, nodes: usize, seed: u64) -> std::io::Result<PathBuf> {
    let mut spec = trellis_spec::generate::generate(nodes, seed);
    let mut rng = Rng::new(seed ^ 0x5EED);
    for (i, node) in spec.nodes.iter_mut().enumerate() {
        let k = i % OWN_TYPES.len();
        node.type_name = Some(OWN_TYPES[k].to_owned().into());
        node.config = config(TYPES[k % TYPES.len()], &mut rng, i).into();
    }
    let mut observed = trellis_spec::infer::Observed::new();
    for node in &spec.nodes {
        if let Some(t) = &node.type_name {
            observed.add(t, &node.config);
        }
    }
    let (entries, _) = observed.entries();
    std::fs::write(dir.join("project.registry.json"), trellis_spec::infer::manifest_text(entries))?;
    let path = dir.join(format!("real-{nodes}.json"));
    std::fs::write(&path, trellis_spec::to_canonical_string(&spec))?;
    Ok(path)
}

/// Writes `generated-<nodes>.json` and its layout sidecar into `dir`; answers the document's
/// path.
pub fn write_document(dir: &Path, nodes: usize, seed: u64) -> std::io::Result<PathBuf> {
    let spec = generate(nodes, seed);
    let path = dir.join(format!("generated-{nodes}.json"));
    std::fs::write(&path, trellis_spec::to_canonical_string(&spec))?;
    std::fs::write(sidecar_path(&path), layout_text(&spec))?;
    Ok(path)
}

/// A registry with the built-in types' metadata *and* a no-op factory for each, so a generated
/// document can also be compiled (the built-in registry is metadata only: a runtime brings the
/// factories).
pub fn compile_registry() -> Registry {
    let mut r = trellis_spec::builtin::default_registry();
    let noop = trellis_spec::pipeline::noop_registry(&TYPES);
    for t in TYPES {
        if let (Some(nt), Some(factory)) = (r.get(t).cloned(), noop.get(t).and_then(|x| x.factory.clone())) {
            r.insert(trellis_spec::NodeType { factory: Some(factory), ..nt });
        }
    }
    r
}

/// The registries a session of the app uses (the built-in ones).
pub fn app_registries() -> trellis_doc::Registries {
    trellis_doc::Registries::new(trellis_spec::builtin::default_registry())
}

/// A shared system clock for sessions.
pub fn clock() -> Arc<dyn trellis_doc::Clock> {
    Arc::new(trellis_doc::SystemClock)
}

#[cfg(test)]
mod tests {
    use super::*;
    use trellis_spec::Severity;

    #[test]
    fn generated_documents_have_no_problems_with_the_built_in_registry() {
        let spec = generate(600, 42);
        assert_eq!(spec, generate(600, 42));
        let registry = trellis_spec::builtin::default_registry();
        let diags = trellis_spec::validate(&spec, Some(&registry));
        let bad: Vec<_> = diags.iter().filter(|d| d.severity != Severity::Info).collect();
        assert!(bad.is_empty(), "{bad:#?}");
        let sizes: Vec<usize> = spec
            .nodes
            .iter()
            .map(|n| serde_json::to_string(&n.config).map(|s| s.len()).unwrap_or(0))
            .collect();
        let mean = sizes.iter().sum::<usize>() / sizes.len();
        assert!((120..190).contains(&mean), "mean config size {mean}");
        let guarded = spec.edges.iter().filter(|e| e.when.is_some()).count() as f64 / spec.edges.len() as f64;
        assert!((0.28..0.40).contains(&guarded), "{guarded}");
    }

    #[test]
    fn generated_documents_compile_and_their_layout_reads_back() {
        let spec = generate(300, 7);
        let graph = trellis_spec::from_spec(&spec, &compile_registry()).and_then(|g| g.compile());
        assert!(graph.is_ok(), "{:?}", graph.err());
        let text = layout_text(&spec);
        let back = Layout::parse(&text).map_err(|d| d.message);
        assert_eq!(back.map(|l| l.positions.len()), Ok(302));
    }

    #[test]
    fn a_written_document_opens_in_a_session_without_problems() {
        let dir = std::env::temp_dir().join(format!("trellis-bench-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string()).unwrap_or_else(|e| panic!("{e}"));
        let path = write_document(&dir, 200, 3).unwrap_or_else(|e| panic!("{e}"));
        let s = trellis_doc::Session::open(
            &trellis_doc::RealFs,
            trellis_doc::DocId(1),
            &path,
            app_registries(),
            clock(),
        )
        .unwrap_or_else(|d| panic!("{d:?}"));
        assert!(!s.layout_missing());
        assert!(s.diagnostics().iter().all(|d| d.severity == Severity::Info), "{:?}", s.diagnostics());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_real_file_opens_without_errors_and_without_positions() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = write_real_file(dir.path(), 300, 5).unwrap_or_else(|e| panic!("{e}"));
        assert!(!trellis_doc::layout::sidecar_path(&path).exists(), "no sidecar: the user's file has none");
        let mut ws = trellis_doc::Workspace::new(
            Arc::new(trellis_doc::RealFs),
            clock(),
            dir.path(),
            trellis_doc::discovery::registry_loader(),
        );
        let id = ws.open(&path).unwrap_or_else(|d| panic!("{d:?}"));
        let s = ws.session(id).unwrap_or_else(|d| panic!("{d:?}"));
        let errors: Vec<_> = s.diagnostics().iter().filter(|d| d.is_error()).collect();
        assert!(errors.is_empty(), "{errors:?}");
        let types: std::collections::HashSet<_> =
            s.spec().into_iter().flat_map(|g| &g.nodes).filter_map(|n| n.type_name.as_deref()).collect();
        assert_eq!(types.len(), OWN_TYPES.len());
        assert!(types.iter().all(|t| trellis_spec::builtin::default_registry().get(t).is_none()));
    }
}
