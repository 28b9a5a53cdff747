//! Weaveflow's transfer files (formats.md §5.2): the files that carry a Graph Definition
//! inside something else, opened as the definition they carry.
//!
//! * The Workbench's **export bundle** (`<graph_id>.weaveflow.json`): `format`
//!   `"weaveflow.graph-export"`, `format_version` `"1.0"`, `exported_at`, `contents` (what is
//!   present: `graph`, `config`, `settings`, `triggers`, `ui`), `graph_id`, `graph_version`,
//!   `definition` (without `metadata.web`), `settings`, `triggers`, and `ui.web`, which is the
//!   definition's `metadata.web` (positions) moved out. Checked with the Workbench's import
//!   messages (`graphTransferModel.ts@6caf2c9`).
//! * The server's **upload envelope**, in two generations: now `{graph_version, definition,
//!   settings, triggers?}` (`POST /graphs/:graph_id/sessions`, `graph_upload.go@9ae3512`), and in
//!   the 2.0 era `{graph_id, graph_version, definition, settings}` (`PUT /graph`,
//!   `server-api.md@0ad04ab`). Checked with the server's messages.
//!
//! Everything but the definition (and `ui.web`) is kept as read: the document's raw value is
//! the whole file, and an edit changes only the definition inside it (`doc.rs`).

use serde_json::{Map, Value};
use trellis_spec::diagnostic::pointer_push;
use trellis_spec::{json, Diagnostic};

use super::codes;

/// What kind of file holds the definition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransferKind {
    /// The Workbench's export bundle (`format: "weaveflow.graph-export"`).
    ExportBundle,
    /// The server's upload envelope as it is now (`POST /graphs/:graph_id/sessions`).
    UploadEnvelope,
    /// The 2.0-era upload envelope, with `graph_id` in the body (`PUT /graph`).
    UploadEnvelopeTwoZero,
}

impl TransferKind {
    /// How the app names the file.
    pub fn describe(self) -> &'static str {
        match self {
            TransferKind::ExportBundle => "a Weaveflow Workbench export bundle",
            TransferKind::UploadEnvelope => "a Weaveflow upload envelope (POST /graphs/:graph_id/sessions)",
            TransferKind::UploadEnvelopeTwoZero => "a 2.0-era Weaveflow upload envelope (PUT /graph)",
        }
    }
}

/// The file around a definition: its kind, and where the definition's `metadata.web` lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Transfer {
    pub kind: TransferKind,
    /// `metadata.web` is kept in the bundle's `ui.web` (a bundle that does not already hold it
    /// inside its definition, against the rules, which is then left where it is).
    pub web_in_ui: bool,
}

/// The bundle's `format`.
pub const BUNDLE_FORMAT: &str = "weaveflow.graph-export";
/// The bundle's `format_version`.
pub const BUNDLE_FORMAT_VERSION: &str = "1.0";
/// What a bundle's `contents` may list, in the order the Workbench writes them.
pub const BUNDLE_CONTENTS: [&str; 5] = ["graph", "config", "settings", "triggers", "ui"];
const BUNDLE_FIELDS: [&str; 10] = [
    "format",
    "format_version",
    "exported_at",
    "contents",
    "graph_id",
    "graph_version",
    "definition",
    "settings",
    "triggers",
    "ui",
];
const ENVELOPE_FIELDS: [&str; 4] = ["graph_version", "definition", "settings", "triggers"];
const SETTINGS_FIELDS: [&str; 2] = ["environment", "models"];

/// The kind of transfer file `root` is, when it is one: a `format` key makes a bundle (the
/// Workbench's rule), otherwise a `definition` key an envelope (`graph_id` in the body: the
/// 2.0 era's).
pub fn kind_of(root: &Map<String, Value>) -> Option<TransferKind> {
    if root.contains_key("format") {
        Some(TransferKind::ExportBundle)
    } else if root.contains_key("definition") {
        Some(if root.contains_key("graph_id") {
            TransferKind::UploadEnvelopeTwoZero
        } else {
            TransferKind::UploadEnvelope
        })
    } else {
        None
    }
}

/// True for the codes of this module: their pointers are into the file, not the definition.
pub fn is_file_code(code: &str) -> bool {
    code.starts_with("weaveflow/bundle-") || code.starts_with("weaveflow/upload-")
}

/// The pointer into the file of a pointer into the definition.
pub fn file_pointer(t: &Transfer, pointer: &str) -> String {
    if t.web_in_ui {
        if let Some(rest) = pointer.strip_prefix("/metadata/web") {
            if rest.is_empty() || rest.starts_with('/') {
                return format!("/ui/web{rest}");
            }
        }
    }
    format!("/definition{pointer}")
}

/// Fills the spans of findings about a transfer file's definition (their pointers are into the
/// definition: the canvas and the inspector read them so) at their place in the file.
pub fn fill_spans(t: &Transfer, text: &str, diagnostics: &mut [Diagnostic]) {
    let mut placed: Vec<(usize, Diagnostic)> = diagnostics
        .iter()
        .enumerate()
        .filter(|(_, d)| d.span.is_none())
        .map(|(i, d)| {
            let mut moved = d.clone();
            if !is_file_code(&d.code) {
                moved.pointer = file_pointer(t, &d.pointer);
            }
            (i, moved)
        })
        .collect();
    let mut moved: Vec<Diagnostic> = placed.iter().map(|(_, d)| d.clone()).collect();
    json::fill_spans(text, &mut moved);
    for ((i, _), d) in placed.iter_mut().zip(moved) {
        diagnostics[*i].span = d.span;
    }
}

/// The problems of the file around the definition, pointers into the file.
pub fn check(root: &Map<String, Value>, kind: TransferKind) -> Vec<Diagnostic> {
    match kind {
        TransferKind::ExportBundle => bundle(root),
        TransferKind::UploadEnvelope | TransferKind::UploadEnvelopeTwoZero => envelope(root, kind),
    }
}

fn bundle_error(code: &str, message: impl Into<String>, at: &str) -> Diagnostic {
    Diagnostic::error(code, message).at(at)
}

/// The Workbench's import rules for a bundle (`parseGraphImport`, 6caf2c9), in its order.
fn bundle(root: &Map<String, Value>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let shown = |v: Option<&Value>| match v {
        None | Some(Value::Null) => "missing".to_owned(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    };
    let format = root.get("format");
    if format.and_then(Value::as_str) != Some(BUNDLE_FORMAT) {
        out.push(bundle_error(
            codes::BUNDLE_FORMAT,
            format!("Unsupported graph export format: {}", shown(format)),
            "/format",
        ));
    }
    let version = root.get("format_version");
    if version.and_then(Value::as_str) != Some(BUNDLE_FORMAT_VERSION) {
        out.push(bundle_error(
            codes::BUNDLE_FORMAT,
            format!("Unsupported graph export version: {}", shown(version)),
            "/format_version",
        ));
    }
    for key in root.keys().filter(|k| !BUNDLE_FIELDS.contains(&k.as_str())) {
        out.push(bundle_error(
            codes::BUNDLE_UNKNOWN_FIELD,
            format!("Invalid graph file: graph export contains unknown field {key}."),
            &pointer_push("", key),
        ));
    }
    for key in ["exported_at", "graph_id", "graph_version"] {
        if root.get(key).and_then(Value::as_str).is_none_or(|s| s.trim().is_empty()) {
            out.push(bundle_error(
                codes::BUNDLE_REQUIRED,
                format!("Invalid graph export: {key} is required."),
                &pointer_push("", key),
            ));
        }
    }
    out.extend(contents(root));
    let web = root.get("definition").and_then(|d| d.get("metadata")).and_then(|m| m.get("web"));
    if web.is_some() {
        out.push(bundle_error(
            codes::BUNDLE_WEB,
            "Invalid graph export: definition.metadata.web must be declared through ui.",
            "/definition/metadata/web",
        ));
    }
    out
}

/// The section of a bundle each `contents` entry declares (`config` is the node configs inside
/// the definition, not a section of its own).
fn section(entry: &str) -> Option<&'static str> {
    match entry {
        "graph" => Some("definition"),
        "settings" => Some("settings"),
        "triggers" => Some("triggers"),
        "ui" => Some("ui"),
        _ => None,
    }
}

fn contents(root: &Map<String, Value>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let listed: Vec<(usize, Option<&str>)> = match root.get("contents") {
        Some(Value::Array(items)) => items.iter().map(Value::as_str).enumerate().collect(),
        _ => Vec::new(),
    };
    if !listed.iter().any(|(_, e)| *e == Some("graph")) {
        out.push(bundle_error(
            codes::BUNDLE_CONTENTS,
            "Invalid graph export: contents must include graph.",
            "/contents",
        ));
    }
    for (i, entry) in &listed {
        let at = format!("/contents/{i}");
        match entry {
            Some(e) if BUNDLE_CONTENTS.contains(e) => {
                if let Some(key) = section(e) {
                    if root.get(key).is_none_or(Value::is_null) {
                        out.push(bundle_error(
                            codes::BUNDLE_CONTENTS,
                            format!("Invalid graph export: contents declares {e}, but {e} is missing."),
                            &at,
                        ));
                    }
                }
            }
            _ => out.push(bundle_error(
                codes::BUNDLE_CONTENTS,
                "Invalid graph export: contents contains an unsupported value.",
                &at,
            )),
        }
    }
    for entry in ["settings", "triggers", "ui"] {
        let declared = listed.iter().any(|(_, e)| *e == Some(entry));
        if !declared && root.get(entry).is_some_and(|v| !v.is_null()) {
            out.push(bundle_error(
                codes::BUNDLE_CONTENTS,
                format!("Invalid graph export: {entry} is present but contents does not declare it."),
                &pointer_push("", entry),
            ));
        }
    }
    out
}

/// The server's upload rules (`graph_upload.go@9ae3512`): a strict decode of the body (Go's
/// words for an unknown field), then the definition and the settings required.
fn envelope(root: &Map<String, Value>, kind: TransferKind) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let era = "the 2.0-era envelope of PUT /graph (server-api.md@0ad04ab); the current server \
               (POST /graphs/:graph_id/sessions) takes the graph id from the path";
    for key in root.keys().filter(|k| !ENVELOPE_FIELDS.contains(&k.as_str())) {
        let why = if key == "graph_id" && kind == TransferKind::UploadEnvelopeTwoZero {
            format!(": {era}")
        } else {
            String::new()
        };
        out.push(bundle_error(
            codes::UPLOAD_UNKNOWN_FIELD,
            format!("invalid graph upload: json: unknown field \"{key}\"{why}"),
            &pointer_push("", key),
        ));
    }
    if root.get("definition").is_none_or(Value::is_null) {
        out.push(bundle_error(codes::UPLOAD_REQUIRED, "graph upload definition is required", "/definition"));
    }
    match root.get("settings") {
        None | Some(Value::Null) => {
            out.push(bundle_error(codes::UPLOAD_REQUIRED, "graph upload settings are required", "/settings"));
        }
        Some(Value::Object(settings)) => {
            for key in settings.keys().filter(|k| !SETTINGS_FIELDS.contains(&k.as_str())) {
                let why = if key == "memory" { ": memory belonged to the 2.0-era settings" } else { "" };
                out.push(bundle_error(
                    codes::UPLOAD_UNKNOWN_FIELD,
                    format!("invalid graph upload: json: unknown field \"{key}\"{why}"),
                    &pointer_push("/settings", key),
                ));
            }
        }
        Some(_) => {}
    }
    out
}

/// The definition's `metadata.web`, taken out of a definition value (and `metadata` with it
/// when nothing else is in it).
pub(crate) fn take_web(definition: &mut Value) -> Option<Value> {
    let metadata = definition.get_mut("metadata")?.as_object_mut()?;
    let web = metadata.shift_remove("web");
    if metadata.is_empty() {
        if let Some(d) = definition.as_object_mut() {
            d.shift_remove("metadata");
        }
    }
    web
}

/// Puts `web` in a bundle's `ui.web` (declaring `ui` in `contents` when it was not there), or
/// takes `ui.web` out when `web` is `None` (and `ui` with its declaration when it is empty).
pub(crate) fn set_ui_web(
    root: &mut Map<String, Value>,
    web: Option<Value>,
    merge: impl Fn(&Value, Value) -> Value,
) {
    match web {
        Some(w) => match root.get_mut("ui").and_then(Value::as_object_mut) {
            Some(ui) => {
                let merged = match ui.get("web") {
                    Some(old) => merge(old, w),
                    None => w,
                };
                ui.insert("web".into(), merged);
            }
            None => {
                let mut ui = Map::new();
                ui.insert("web".into(), w);
                root.insert("ui".into(), Value::Object(ui));
                declare(root, "ui", true);
            }
        },
        None => {
            let Some(ui) = root.get_mut("ui").and_then(Value::as_object_mut) else { return };
            if ui.shift_remove("web").is_some() && ui.is_empty() {
                root.shift_remove("ui");
                declare(root, "ui", false);
            }
        }
    }
}

/// Adds `entry` to (or removes it from) a bundle's `contents`.
fn declare(root: &mut Map<String, Value>, entry: &str, present: bool) {
    let Some(Value::Array(items)) = root.get_mut("contents") else { return };
    let has = items.iter().any(|v| v == entry);
    if present && !has {
        items.push(Value::from(entry));
    } else if !present {
        items.retain(|v| v != entry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn kinds_are_told_by_their_keys() {
        assert_eq!(kind_of(&obj(json!({"format": "x", "definition": {}}))), Some(TransferKind::ExportBundle));
        assert_eq!(
            kind_of(&obj(json!({"definition": {}, "settings": {}}))),
            Some(TransferKind::UploadEnvelope)
        );
        assert_eq!(
            kind_of(&obj(json!({"graph_id": "g", "definition": {}}))),
            Some(TransferKind::UploadEnvelopeTwoZero)
        );
        assert_eq!(kind_of(&obj(json!({"version": "1.0", "nodes": []}))), None);
    }

    #[test]
    fn a_bundle_is_checked_with_the_workbench_messages() {
        let root = obj(json!({
            "format": "weaveflow.graph-export", "format_version": "2.0", "exported_at": "",
            "contents": ["config", "settings", "nope"], "graph_id": "g",
            "definition": {"metadata": {"web": {}}}, "ui": {}, "extra": 1
        }));
        let got: Vec<(String, String)> =
            check(&root, TransferKind::ExportBundle).into_iter().map(|d| (d.pointer, d.message)).collect();
        let want = [
            ("/format_version", "Unsupported graph export version: 2.0"),
            ("/extra", "Invalid graph file: graph export contains unknown field extra."),
            ("/exported_at", "Invalid graph export: exported_at is required."),
            ("/graph_version", "Invalid graph export: graph_version is required."),
            ("/contents", "Invalid graph export: contents must include graph."),
            ("/contents/1", "Invalid graph export: contents declares settings, but settings is missing."),
            ("/contents/2", "Invalid graph export: contents contains an unsupported value."),
            ("/ui", "Invalid graph export: ui is present but contents does not declare it."),
            (
                "/definition/metadata/web",
                "Invalid graph export: definition.metadata.web must be declared through ui.",
            ),
        ];
        let want: Vec<(String, String)> =
            want.iter().map(|(a, b)| ((*a).to_owned(), (*b).to_owned())).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn an_envelope_is_checked_with_the_servers_messages() {
        let two = obj(json!({"graph_id": "g", "graph_version": "v1", "definition": {},
            "settings": {"environment": {}, "models": [], "memory": {}}}));
        let got = check(&two, TransferKind::UploadEnvelopeTwoZero);
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(got[0].pointer, "/graph_id");
        assert!(got[0]
            .message
            .starts_with("invalid graph upload: json: unknown field \"graph_id\": the 2.0-era"));
        assert_eq!(got[1].pointer, "/settings/memory");
        let now = obj(json!({"graph_version": "v1"}));
        let got: Vec<String> =
            check(&now, TransferKind::UploadEnvelope).into_iter().map(|d| d.message).collect();
        assert_eq!(got, ["graph upload definition is required", "graph upload settings are required"]);
    }

    #[test]
    fn ui_web_comes_and_goes_with_its_declaration() {
        let merge = |_: &Value, n: Value| n;
        let mut root = obj(json!({"contents": ["graph"]}));
        set_ui_web(&mut root, Some(json!({"positions": {}})), merge);
        assert_eq!(
            Value::Object(root.clone()),
            json!({"contents": ["graph", "ui"], "ui": {"web": {"positions": {}}}})
        );
        set_ui_web(&mut root, None, merge);
        assert_eq!(Value::Object(root), json!({"contents": ["graph"]}));
        let mut def = json!({"name": "x", "metadata": {"web": {"positions": {}}}});
        assert_eq!(take_web(&mut def), Some(json!({"positions": {}})));
        assert_eq!(def, json!({"name": "x"}));
    }
}
