//! Which format a document is in, decided from its content (and, for GRAPH.md, its name),
//! never guessed silently: a document that fits none of the rules, or fits two, gets an error
//! that says why (DESIGN.md "The formats", BRIEF rule).
//!
//! Rules, in order:
//! 1. GRAPH.md: the file is named `GRAPH.md` or `*.graph.md` (any case), or the text starts
//!    with `---` front matter that declares `spec_version`. Either way the front matter must be
//!    a workflow contract: a file whose front matter is absent, or has none of the contract's
//!    keys (`entry`, `exits`, `nodes`, `edges`), is refused in one line ("not a GRAPH.md
//!    workflow contract: ..."): many files named `GRAPH.md` are prose.
//! 2. Otherwise the text must be a JSON object (the first value is enough: a file with trailing
//!    values is still recognised, so its own reader can report them).
//! 3. Weaveflow: the object has `state_modules`, `entry_point` or `finish_point`, in any case and
//!    with or without `_` (a missing `version` or a miscased key is the Weaveflow reader's to
//!    report, in Weaveflow's words); or it has `definition` and no GraphSpec key: a Workbench
//!    export bundle or an upload envelope, which carry a definition (its reader checks them).
//! 4. GraphSpec: otherwise, the object has any of `nodes`, `edges`, `channels`, or it has `name`
//!    and no key a GraphSpec does not have (`{"name": null}` is an empty GraphSpec; a
//!    `package.json`, with its `name` among other keys, is not a graph document).
//!
//! A Weaveflow-looking object that also has `channels` (a GraphSpec-only key) is ambiguous.

use serde_json::Value;
use trellis_spec::json_outline::{outline, outline_quick, Outline};
use trellis_spec::{Diagnostic, Span};

/// Codes of format detection.
pub mod codes {
    /// The document matches no known format.
    pub const UNKNOWN_FORMAT: &str = "detect/unknown-format";
    /// The document matches more than one format.
    pub const AMBIGUOUS: &str = "detect/ambiguous";
    /// A file named (or marked) GRAPH.md whose front matter is absent or no workflow contract.
    pub const NOT_A_CONTRACT: &str = "detect/not-a-contract";
}

/// The three document formats Trellis opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    GraphSpec,
    Weaveflow,
    GraphMd,
}

impl Format {
    /// The name used on the command line and in messages.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::GraphSpec => "graphspec",
            Format::Weaveflow => "weaveflow",
            Format::GraphMd => "graphmd",
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// True for `GRAPH.md` or `*.graph.md`, any case, with or without folders.
pub(crate) fn graph_md_name(file_name: &str) -> bool {
    let base = file_name.rsplit(['/', '\\']).next().unwrap_or(file_name).to_ascii_lowercase();
    base == "graph.md" || base.ends_with(".graph.md")
}

/// The front matter block (between the opening `---` line and the next `---`/`...` line), when
/// the text starts with one.
fn front_matter(text: &str) -> Option<&str> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let rest = text.strip_prefix("---")?;
    let rest = rest.strip_prefix("\r\n").or_else(|| rest.strip_prefix('\n'))?;
    let mut end = rest.len();
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        let l = line.trim_end_matches(['\r', '\n']);
        if l == "---" || l == "..." {
            end = offset;
            break;
        }
        offset += line.len();
    }
    Some(&rest[..end])
}

/// True when the front matter has a top-level `spec_version:` key.
fn declares_spec_version(front: &str) -> bool {
    front.lines().any(|l| {
        l.strip_prefix("spec_version").is_some_and(|r| r.trim_start().starts_with(':'))
            || l.strip_prefix("\"spec_version\"").is_some_and(|r| r.trim_start().starts_with(':'))
    })
}

/// Why a text without front matter is no workflow contract.
const NO_FRONT_MATTER: &str =
    "it has no YAML front matter (a contract starts with a `---` line, then `entry`, `exits`, `nodes` and `edges`)";

/// The keys of a GRAPH.md workflow contract's front matter, of which one at least must be
/// there (formats.md §3 and §5.5: `spec_version` alone decides nothing, `name` nothing either).
const CONTRACT_KEYS: [&str; 4] = ["entry", "exits", "nodes", "edges"];

/// `Ok` when `text` opens with front matter that has a top-level key of a workflow contract;
/// otherwise the one-line refusal saying why it is not one.
fn contract(text: &str) -> Result<(), Diagnostic> {
    let refuse = |why: &str| {
        Err(Diagnostic::error(codes::NOT_A_CONTRACT, format!("not a GRAPH.md workflow contract: {why}")))
    };
    let Some(front) = front_matter(text) else {
        return refuse(if text.trim().is_empty() { "the file is empty" } else { NO_FRONT_MATTER });
    };
    let top_level = |key: &str| {
        front.lines().any(|l| {
            let rest = l.strip_prefix(key).or_else(|| l.strip_prefix(&format!("\"{key}\"")[..]));
            rest.is_some_and(|r| r.trim_start().starts_with(':'))
        })
    };
    if CONTRACT_KEYS.iter().any(|k| top_level(k)) {
        return Ok(());
    }
    refuse("its front matter has none of the contract's keys `entry`, `exits`, `nodes`, `edges`")
}

/// Detects the format of a document.
pub fn detect(file_name: Option<&str>, text: &str) -> Result<Format, Diagnostic> {
    detect_with(file_name, text, outline)
}

/// Whether [`detect`] would say GraphSpec, found with the top-level keys only (nothing below
/// them is checked): a `true` is worth acting on only for a reader that checks the whole text
/// itself and asks [`detect`] when that finds a problem in the JSON (see
/// [`crate::any::AnyDocument::read`]).
pub fn looks_like_graphspec(file_name: Option<&str>, text: &str) -> bool {
    let quick = |t: &str| outline_quick(t).ok_or_else(|| Diagnostic::error("", ""));
    matches!(detect_with(file_name, text, quick), Ok(Format::GraphSpec))
}

fn detect_with(
    file_name: Option<&str>,
    text: &str,
    outline: impl Fn(&str) -> Result<Outline, Diagnostic>,
) -> Result<Format, Diagnostic> {
    if file_name.is_some_and(graph_md_name) {
        return contract(text).map(|()| Format::GraphMd);
    }
    if let Some(front) = front_matter(text) {
        if declares_spec_version(front) {
            return contract(text).map(|()| Format::GraphMd);
        }
        return Err(Diagnostic::error(
            codes::UNKNOWN_FORMAT,
            "the file starts with YAML front matter but does not declare `spec_version`, so it is not a GRAPH.md document; \
             name it GRAPH.md or *.graph.md, or add `spec_version`",
        )
        .with_span(Span::from_range(text, 0, 3.min(text.len()))));
    }

    let trimmed = text.trim_start_matches(['\u{feff}', ' ', '\t', '\r', '\n']);
    if !trimmed.starts_with(['{', '[']) {
        return Err(Diagnostic::error(
            codes::UNKNOWN_FORMAT,
            if trimmed.is_empty() {
                "the file is empty, so it is no graph format".to_owned()
            } else {
                "the file is neither JSON (a GraphSpec or a Weaveflow Graph Definition) nor GRAPH.md \
                 (named GRAPH.md/*.graph.md, or front matter declaring `spec_version`)"
                    .to_owned()
            },
        )
        .with_span(Span::from_range(text, 0, 0)));
    }
    // The top-level keys are all detection needs: the text is checked as a parse would check
    // it (syntax, nesting, duplicate keys), but no value is built.
    match outline(text)? {
        Outline::Object(keys) => object_format(&keys),
        Outline::Other(kind) => Err(Diagnostic::error(
            codes::UNKNOWN_FORMAT,
            format!("the document is a JSON {kind}, not an object, so it is neither a GraphSpec nor a Weaveflow Graph Definition"),
        )
        .with_span(Span::from_range(text, 0, 0))),
    }
}

/// [`detect`] for a document already parsed into a JSON object, so a reader that has parsed
/// the text need not parse it again to detect its format. Only the file-name rule and the
/// object's top-level keys can apply: text that parses as a JSON object has no front matter.
pub fn detect_object(
    file_name: Option<&str>,
    obj: &serde_json::Map<String, Value>,
) -> Result<Format, Diagnostic> {
    if file_name.is_some_and(graph_md_name) {
        // Text that parses as a JSON object has no front matter.
        return Err(Diagnostic::error(
            codes::NOT_A_CONTRACT,
            format!("not a GRAPH.md workflow contract: {NO_FRONT_MATTER}"),
        ));
    }
    let keys: Vec<&str> = obj.keys().map(String::as_str).collect();
    object_format(&keys)
}

/// A GraphSpec's top-level keys.
const GRAPHSPEC_KEYS: [&str; 4] = ["name", "channels", "nodes", "edges"];

/// Top-level keys only a Weaveflow Graph Definition has, as [`loose`] spells them.
const WEAVEFLOW_KEYS: [&str; 3] = ["statemodules", "entrypoint", "finishpoint"];

/// A key lower-cased without `_` and `-` (`Entry_Point` and `entryPoint` are `entrypoint`).
fn loose(key: &str) -> String {
    key.chars().filter(|c| *c != '_' && *c != '-').flat_map(char::to_lowercase).collect()
}

/// The format a JSON object's top-level keys say.
pub(crate) fn object_format<K: AsRef<str>>(keys: &[K]) -> Result<Format, Diagnostic> {
    let has = |k: &str| keys.iter().any(|key| key.as_ref() == k);
    let weaveflow = keys.iter().any(|k| WEAVEFLOW_KEYS.contains(&loose(k.as_ref()).as_str()));
    if weaveflow {
        if has("channels") {
            return Err(Diagnostic::error(
                codes::AMBIGUOUS,
                "the document has Weaveflow keys (`state_modules`, `entry_point` or `finish_point`) and the GraphSpec key `channels`; \
                 Trellis will not guess which format it is: remove the keys of the other format",
            )
            .at("/channels"));
        }
        return Ok(Format::Weaveflow);
    }
    if ["nodes", "edges", "channels"].iter().any(|k| has(k)) {
        return Ok(Format::GraphSpec);
    }
    // A Weaveflow transfer file: the Workbench's export bundle or an upload envelope.
    if has("definition") {
        return Ok(Format::Weaveflow);
    }
    // `name` alone makes a (still empty) GraphSpec only when nothing else is there: a
    // `package.json` has a `name` too, and is no graph.
    if has("name") && keys.iter().all(|k| GRAPHSPEC_KEYS.contains(&k.as_ref())) {
        return Ok(Format::GraphSpec);
    }
    // A single node, as documentation pages show one: said so, with the key a runtime would
    // name first (Weaveflow: `json: unknown field "id"`).
    if has("id") && has("type") {
        return Err(Diagnostic::error(
            codes::UNKNOWN_FORMAT,
            "not a graph document: it is a single node (`id`, `type`), a fragment of a graph's `nodes` list, \
             not a whole graph (a Weaveflow definition has no field `id`)",
        ));
    }
    let keys: Vec<&str> = keys.iter().map(AsRef::as_ref).take(8).collect();
    Err(Diagnostic::error(
        codes::UNKNOWN_FORMAT,
        format!(
            "not a graph document: no `nodes` (a GraphSpec has `nodes`, `edges` or `channels`; a Weaveflow Graph Definition \
             has `state_modules`, `entry_point` or `finish_point`); this one has {}",
            if keys.is_empty() { "no keys".to_owned() } else { format!("the keys {}", keys.join(", ")) }
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use trellis_spec::json;

    fn code(r: Result<Format, Diagnostic>) -> String {
        r.err().map(|d| d.code).unwrap_or_default()
    }

    #[test]
    fn graph_md_by_name_any_case() {
        let contract = "---\nentry: a\nnodes: []\n---\n";
        assert_eq!(detect(Some("GRAPH.md"), contract), Ok(Format::GraphMd));
        assert_eq!(detect(Some("dir/flows/Support.Graph.MD"), contract), Ok(Format::GraphMd));
        assert_eq!(detect(Some("C:\\x\\graph.md"), contract), Ok(Format::GraphMd));
    }

    #[test]
    fn a_graph_md_that_is_no_contract_is_refused_in_one_line() {
        for (text, why) in [
            ("# Graph\n\nHow our graph library works.\n", "it has no YAML front matter"),
            ("", "the file is empty"),
            ("---\ntitle: Graph notes\nspec_version: 1.1.0\n---\nprose\n", "none of the contract's keys"),
            ("{}", "it has no YAML front matter"),
        ] {
            let Err(d) = detect(Some("GRAPH.md"), text) else { panic!("{text:?} is no contract") };
            assert_eq!(d.code, codes::NOT_A_CONTRACT);
            assert!(d.message.starts_with("not a GRAPH.md workflow contract: "), "{}", d.message);
            assert!(d.message.contains(why), "{}", d.message);
            assert!(!d.message.contains('\n'), "one line: {}", d.message);
        }
        // Front matter that declares `spec_version` but is no contract, in a file of another name.
        let skill = "---\nname: x\nspec_version: 0.1.0\nsteps: []\n---\n";
        assert_eq!(code(detect(Some("SKILL.md"), skill)), codes::NOT_A_CONTRACT);
        // A nested `nodes:` is not the top-level key; a quoted top-level one is.
        assert_eq!(code(detect(Some("GRAPH.md"), "---\nmeta:\n  nodes: []\n---\n")), codes::NOT_A_CONTRACT);
        assert_eq!(detect(Some("GRAPH.md"), "---\n\"edges\": []\n---\n"), Ok(Format::GraphMd));
        // A parsed JSON object named GRAPH.md is said the same way as its text.
        let Ok(Value::Object(obj)) = json::parse("{}") else { panic!("an object") };
        assert_eq!(code(detect_object(Some("GRAPH.md"), &obj)), codes::NOT_A_CONTRACT);
    }

    #[test]
    fn transfer_files_are_weaveflow() {
        let bundle = r#"{"format":"weaveflow.graph-export","format_version":"1.0","contents":["graph"],"definition":{}}"#;
        assert_eq!(detect(Some("g.weaveflow.json"), bundle), Ok(Format::Weaveflow));
        let envelope = r#"{"graph_id":"g","graph_version":"v1","definition":{},"settings":{}}"#;
        assert_eq!(detect(None, envelope), Ok(Format::Weaveflow));
    }

    #[test]
    fn graph_md_by_front_matter() {
        let text = "---\nname: x\nspec_version: 1.1.0\nentry: a\n---\n# Body\n";
        assert_eq!(detect(Some("notes.md"), text), Ok(Format::GraphMd));
        assert_eq!(
            detect(None, "---\r\nspec_version : \"1.0.0\"\r\nnodes: []\r\n---\r\n"),
            Ok(Format::GraphMd)
        );
        // spec_version in the body, not the front matter, does not count.
        assert_eq!(code(detect(None, "---\nname: x\n---\nspec_version: 1\n")), codes::UNKNOWN_FORMAT);
        // A nested key is not the top-level one.
        assert_eq!(code(detect(None, "---\nmeta:\n  spec_version: 1\n---\n")), codes::UNKNOWN_FORMAT);
    }

    #[test]
    fn weaveflow_by_keys() {
        assert_eq!(detect(None, r#"{"version":"1.0","state_modules":[]}"#), Ok(Format::Weaveflow));
        assert_eq!(
            detect(Some("g.json"), r#"{"version":"2.0","entry_point":"a","nodes":[]}"#),
            Ok(Format::Weaveflow)
        );
        // Trailing values: still Weaveflow (its reader reports them).
        assert_eq!(detect(None, r#"{"version":"1.0","entry_point":"a"} {}"#), Ok(Format::Weaveflow));
        // No `version`, or a key miscased: Weaveflow all the same (its reader says what is wrong).
        assert_eq!(detect(None, r#"{"entry_point":"a","nodes":[],"edges":[]}"#), Ok(Format::Weaveflow));
        assert_eq!(detect(None, r#"{"version":"1.0","Entry_Point":"a","nodes":[]}"#), Ok(Format::Weaveflow));
        assert_eq!(detect(None, r#"{"version":"1.0","stateModules":[],"nodes":[]}"#), Ok(Format::Weaveflow));
    }

    #[test]
    fn graphspec_by_keys() {
        assert_eq!(
            detect(None, r#"{"name":null,"channels":{},"nodes":[],"edges":[]}"#),
            Ok(Format::GraphSpec)
        );
        assert_eq!(detect(None, r#"{"nodes":[]}"#), Ok(Format::GraphSpec));
        // `version` alone does not make a Weaveflow document.
        assert_eq!(detect(None, r#"{"version":"1.0","nodes":[]}"#), Ok(Format::GraphSpec));
        // `name` alone: an empty GraphSpec.
        assert_eq!(detect(None, r#"{"name":null}"#), Ok(Format::GraphSpec));
    }

    #[test]
    fn a_package_json_is_not_a_graph_document() {
        let text = r#"{"name":"trellis","version":"0.1.0","private":true,"scripts":{"test":"x"}}"#;
        let Err(d) = detect(Some("package.json"), text) else { panic!("package.json is refused") };
        assert_eq!(d.code, codes::UNKNOWN_FORMAT);
        assert!(d.message.starts_with("not a graph document: no `nodes`"), "{}", d.message);
        assert!(d.message.contains("name, version, private, scripts"), "{}", d.message);
    }

    #[test]
    fn ambiguous_is_an_error() {
        let r = detect(None, r#"{"version":"1.0","entry_point":"a","channels":{}}"#);
        assert_eq!(code(r.clone()), codes::AMBIGUOUS);
        assert_eq!(r.err().map(|d| d.pointer), Some("/channels".into()));
    }

    #[test]
    fn a_parsed_object_is_detected_as_its_text_is() {
        let texts = [
            r#"{"version":"1.0","state_modules":[]}"#,
            r#"{"nodes":[],"edges":[]}"#,
            r#"{"version":"1.0","entry_point":"a","channels":{}}"#,
            r#"{"title":"x"}"#,
        ];
        for name in [None, Some("flow.json"), Some("GRAPH.md")] {
            for text in texts {
                let Ok(Value::Object(obj)) = json::parse(text) else { panic!("an object: {text}") };
                assert_eq!(detect_object(name, &obj), detect(name, text), "{name:?} {text}");
            }
        }
    }

    #[test]
    fn unknown_documents_are_errors() {
        assert_eq!(code(detect(None, r#"{"title":"x"}"#)), codes::UNKNOWN_FORMAT);
        assert_eq!(code(detect(None, "{}")), codes::UNKNOWN_FORMAT);
        assert_eq!(code(detect(None, "[1,2]")), codes::UNKNOWN_FORMAT);
        assert_eq!(code(detect(None, "# just markdown")), codes::UNKNOWN_FORMAT);
        assert_eq!(code(detect(Some("README.md"), "hello")), codes::UNKNOWN_FORMAT);
        assert_eq!(code(detect(None, "")), codes::UNKNOWN_FORMAT);
        assert_eq!(code(detect(None, "  42")), codes::UNKNOWN_FORMAT);
        assert_eq!(code(detect(None, "{\"nodes\": [")), trellis_spec::json::codes::SYNTAX);
    }
}
