//! Describing node types from the documents that use them (`trellis registry infer`, the app's
//! "describe it" fix): a registry manifest whose config schemas are inferred from every config
//! seen for each type.
//!
//! The inferred schema of a set of values: their JSON types (`integer` and `number` together
//! are `number`; several types give a list), and for objects every property seen (each
//! inferred from all its values), `required` = the properties present in *every* object, and
//! `additionalProperties: true` (a runtime's type surely takes fields this document does not
//! use); for arrays, `items` inferred from all elements. No enums, bounds or formats are
//! guessed: those are the user's to add. Output is deterministic: types sorted by name,
//! properties in first-seen order, 2-space JSON with a final newline.
//!
//! [`merge_into`] adds types to an existing manifest *text*, keeping its order and text: the
//! new entries are inserted at the end of its `types` list, nothing else changes.

use indexmap::IndexMap;
use serde_json::{json, Map, Value};

use crate::manifest::{parse_manifest, type_name_problem};

/// Nesting deeper than this is described as "any value" (`{}`): a hostile config must not
/// make the inference recurse without bound.
pub const MAX_DEPTH: usize = 32;

/// The category of inferred types.
pub const CATEGORY: &str = "project";

/// Configs seen per type, in first-seen order of types.
#[derive(Debug, Default)]
pub struct Observed<'a> {
    types: IndexMap<&'a str, Vec<&'a Map<String, Value>>>,
}

impl<'a> Observed<'a> {
    pub fn new() -> Self {
        Observed::default()
    }

    /// One node of `type_name` with `config`.
    pub fn add(&mut self, type_name: &'a str, config: &'a Map<String, Value>) {
        self.types.entry(type_name).or_default().push(config);
    }

    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }

    pub fn type_names(&self) -> impl Iterator<Item = &'a str> + '_ {
        self.types.keys().copied()
    }

    /// The manifest entries of every observed type with a usable name, sorted by name.
    /// Names a manifest cannot hold (empty, whitespace, too long) are returned apart.
    pub fn entries(&self) -> (Vec<Value>, Vec<String>) {
        let mut names: Vec<&str> = self.types.keys().copied().collect();
        names.sort_unstable();
        let mut entries = Vec::with_capacity(names.len());
        let mut refused = Vec::new();
        for name in names {
            if type_name_problem(name).is_some() {
                refused.push(name.to_owned());
                continue;
            }
            let configs = &self.types[name];
            entries.push(type_entry(name, configs));
        }
        (entries, refused)
    }
}

/// One manifest entry: type, title, category, config schema.
pub fn type_entry(name: &str, configs: &[&Map<String, Value>]) -> Value {
    let mut schema = object_schema(configs.iter().copied(), 0);
    if let Value::Object(s) = &mut schema {
        // Every config is an object, so the root says so even when no config was seen.
        s.insert("type".into(), json!("object"));
    }
    json!({
        "type": name,
        "title": title_of(name),
        "category": CATEGORY,
        "config_schema": schema,
    })
}

/// A whole manifest holding `entries`.
pub fn manifest_text(entries: Vec<Value>) -> String {
    let mut text = serde_json::to_string_pretty(&json!({ "types": entries })).unwrap_or_default();
    text.push('\n');
    text
}

/// "web_search" -> "Web search", "fetchURL" -> "Fetch url", "crm-lookup" -> "Crm lookup".
pub fn title_of(name: &str) -> String {
    let mut words: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if matches!(c, '_' | '-' | '.' | ' ' | '/' | ':') {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        current.extend(c.to_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    let mut title = words.join(" ");
    if let Some(first) = title.chars().next() {
        let upper: String = first.to_uppercase().collect();
        title.replace_range(..first.len_utf8(), &upper);
    }
    if title.is_empty() {
        name.to_owned()
    } else {
        title
    }
}

/// The schema of a set of objects (a node's configs, or the objects found at one place).
fn object_schema<'v>(objects: impl Iterator<Item = &'v Map<String, Value>>, depth: usize) -> Value {
    let mut seen: IndexMap<&str, Vec<&Value>> = IndexMap::new();
    let mut count = 0usize;
    for o in objects {
        count += 1;
        for (k, v) in o {
            seen.entry(k.as_str()).or_default().push(v);
        }
    }
    let mut properties = Map::new();
    let mut required = Vec::new();
    for (k, values) in &seen {
        if values.len() == count {
            required.push(json!(k));
        }
        properties.insert((*k).to_owned(), value_schema(values, depth + 1));
    }
    let mut s = Map::new();
    s.insert("type".into(), json!("object"));
    s.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        s.insert("required".into(), Value::Array(required));
    }
    s.insert("additionalProperties".into(), json!(true));
    Value::Object(s)
}

/// The JSON type names in schema order.
const TYPE_ORDER: [&str; 7] = ["object", "array", "string", "number", "integer", "boolean", "null"];

/// The schema of the values seen at one place.
fn value_schema(values: &[&Value], depth: usize) -> Value {
    if depth > MAX_DEPTH {
        return json!({});
    }
    let mut present = [false; 7];
    for v in values {
        let i = match v {
            Value::Object(_) => 0,
            Value::Array(_) => 1,
            Value::String(_) => 2,
            Value::Number(n) if n.is_i64() || n.is_u64() => 4,
            Value::Number(_) => 3,
            Value::Bool(_) => 5,
            Value::Null => 6,
        };
        present[i] = true;
    }
    if present[3] {
        // An integer is a number: "number" covers both.
        present[4] = false;
    }
    let types: Vec<&str> = TYPE_ORDER.iter().zip(present).filter(|(_, p)| *p).map(|(t, _)| *t).collect();
    let mut s = Map::new();
    match types.as_slice() {
        [] => {}
        [one] => {
            s.insert("type".into(), json!(one));
        }
        many => {
            s.insert("type".into(), json!(many));
        }
    }
    if present[0] {
        let objects = values.iter().filter_map(|v| v.as_object());
        if let Value::Object(o) = object_schema(objects, depth) {
            for (k, v) in o {
                if k != "type" {
                    s.insert(k, v);
                }
            }
        }
    }
    if present[1] {
        let items: Vec<&Value> = values.iter().filter_map(|v| v.as_array()).flatten().collect();
        if !items.is_empty() {
            s.insert("items".into(), value_schema(&items, depth + 1));
        }
    }
    Value::Object(s)
}

/// Why [`merge_into`] could not merge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergeRefused(pub String);

/// What [`merge_into`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merged {
    pub text: String,
    /// The types added (those the manifest did not have), in order.
    pub added: Vec<String>,
}

/// Adds every entry of `entries` whose type `manifest` (a manifest's text) does not have yet,
/// at the end of its `types` list, keeping the rest of the text byte for byte. Refused when
/// the text is not a readable manifest (the file is never made worse).
pub fn merge_into(manifest: &str, entries: &[Value]) -> Result<Merged, MergeRefused> {
    use jsonc_parser::ast::Value as V;
    use jsonc_parser::common::Ranged;
    let (parsed, diagnostics) = parse_manifest(manifest, "registry");
    let Some(parsed) = parsed else {
        let why = diagnostics
            .first()
            .map_or_else(|| "it is not a registry manifest".to_owned(), |d| d.message.clone());
        return Err(MergeRefused(format!("the existing file cannot be extended: {why}")));
    };
    let existing: std::collections::HashSet<&str> =
        parsed.types.iter().map(|t| t.type_name.as_str()).collect();
    let new: Vec<&Value> = entries
        .iter()
        .filter(|e| e.get("type").and_then(Value::as_str).is_some_and(|t| !existing.contains(t)))
        .collect();
    let added: Vec<String> =
        new.iter().filter_map(|e| e.get("type").and_then(Value::as_str)).map(str::to_owned).collect();
    if new.is_empty() {
        return Ok(Merged { text: manifest.to_owned(), added });
    }
    let options = crate::json::strict_jsonc_options();
    let ast = jsonc_parser::parse_to_ast(manifest, &Default::default(), &options)
        .map_err(|e| MergeRefused(format!("the existing file cannot be extended: {e}")))?;
    let Some(V::Object(root)) = ast.value else {
        return Err(MergeRefused("the existing file cannot be extended: its root is not an object".into()));
    };
    let Some(types) = root.properties.iter().rev().find(|p| p.name.as_str() == "types") else {
        return Err(MergeRefused("the existing file cannot be extended: it has no \"types\" list".into()));
    };
    let V::Array(list) = &types.value else {
        return Err(MergeRefused("the existing file cannot be extended: \"types\" is not a list".into()));
    };
    let newline = if manifest.contains("\r\n") { "\r\n" } else { "\n" };
    let (insert_at, indent, lead) = match list.elements.last() {
        Some(last) => {
            let end = last.range().end;
            let start = last.range().start;
            (end, indent_at(manifest, start), ",")
        }
        None => {
            // `[]`: entries go inside, one level deeper than the line of `"types"`.
            let inner = list.range.start + 1;
            (inner, format!("{}  ", indent_at(manifest, types.range.start)), "")
        }
    };
    let mut insert = String::from(lead);
    for (i, e) in new.iter().enumerate() {
        if i > 0 {
            insert.push(',');
        }
        insert.push_str(newline);
        insert.push_str(&indent);
        let pretty = serde_json::to_string_pretty(e).unwrap_or_default();
        insert.push_str(&pretty.replace('\n', &format!("{newline}{indent}")));
    }
    if list.elements.is_empty() {
        insert.push_str(newline);
        insert.push_str(&indent_at(manifest, types.range.start));
    }
    let mut text = String::with_capacity(manifest.len() + insert.len());
    text.push_str(&manifest[..insert_at]);
    text.push_str(&insert);
    text.push_str(&manifest[insert_at..]);
    Ok(Merged { text, added })
}

/// The whitespace that starts the line holding byte `at`, when only whitespace precedes `at`
/// on it; otherwise two spaces per level is assumed.
fn indent_at(text: &str, at: usize) -> String {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..at];
    if before.chars().all(|c| c == ' ' || c == '\t') {
        before.to_owned()
    } else {
        "  ".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obj(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn titles_are_made_from_ids() {
        assert_eq!(title_of("web_search"), "Web search");
        assert_eq!(title_of("planner"), "Planner");
        assert_eq!(title_of("fetchUrl"), "Fetch url");
        assert_eq!(title_of("crm-lookup.v2"), "Crm lookup v2");
        assert_eq!(title_of("__"), "__");
    }

    #[test]
    fn schemas_union_types_and_require_what_every_config_has() {
        let a = obj(json!({"q": "x", "k": 3, "opts": {"deep": [1, 2]}, "n": null}));
        let b = obj(json!({"q": "y", "k": 2.5, "opts": {"deep": [], "more": true}}));
        let e = type_entry("web_search", &[&a, &b]);
        let s = &e["config_schema"];
        assert_eq!(s["type"], "object");
        assert_eq!(s["required"], json!(["q", "k", "opts"]));
        assert_eq!(s["additionalProperties"], true);
        assert_eq!(s["properties"]["k"]["type"], "number");
        assert_eq!(s["properties"]["n"]["type"], "null");
        assert_eq!(s["properties"]["opts"]["required"], json!(["deep"]));
        assert_eq!(s["properties"]["opts"]["properties"]["deep"]["items"]["type"], "integer");
        assert_eq!(e["category"], "project");
        // What is inferred validates every config it was inferred from.
        let v = crate::config_schema::compile(s).expect("compiles");
        assert!(v.is_valid(&Value::Object(a)) && v.is_valid(&Value::Object(b)));
    }

    #[test]
    fn mixed_values_give_a_type_list() {
        let a = obj(json!({"x": "s"}));
        let b = obj(json!({"x": [1, "a"]}));
        let e = type_entry("t", &[&a, &b]);
        assert_eq!(e["config_schema"]["properties"]["x"]["type"], json!(["array", "string"]));
        assert_eq!(e["config_schema"]["properties"]["x"]["items"]["type"], json!(["string", "integer"]));
    }

    #[test]
    fn deep_configs_stop_at_the_depth_limit() {
        let mut v = json!(1);
        // Deeper than the JSON reader allows (128), well within a test thread's stack.
        for _ in 0..200 {
            v = json!({ "a": v });
        }
        let c = obj(v);
        let e = type_entry("deep", &[&c]);
        let text = serde_json::to_string(&e).unwrap_or_default();
        assert!(text.len() < 10_000, "{}", text.len());
    }

    #[test]
    fn merging_keeps_the_text_and_adds_only_missing_types() {
        let original =
            "{\n  \"name\": \"mine\",\n  \"types\": [\n    {\"type\": \"a\", \"title\": \"Mine\"}\n  ]\n}\n";
        let c = Map::new();
        let entries = vec![type_entry("a", &[&c]), type_entry("b", &[&c])];
        let m = merge_into(original, &entries).expect("merges");
        assert_eq!(m.added, vec!["b".to_owned()]);
        assert!(m.text.starts_with("{\n  \"name\": \"mine\",\n  \"types\": [\n    {\"type\": \"a\", \"title\": \"Mine\"},\n    {\n      \"type\": \"b\""), "{}", m.text);
        assert!(m.text.ends_with("\n    }\n  ]\n}\n"), "{}", m.text);
        let (parsed, ds) = parse_manifest(&m.text, "x");
        assert!(ds.is_empty(), "{ds:?}");
        assert_eq!(parsed.map(|p| p.types.len()), Some(2));
        // Nothing new: the text is untouched.
        let again = merge_into(&m.text, &entries).expect("merges");
        assert_eq!(again.text, m.text);
        assert!(again.added.is_empty());
    }

    #[test]
    fn merging_into_an_empty_list_and_refusing_a_broken_file() {
        let c = Map::new();
        let m = merge_into("{\"types\": []}", &[type_entry("z", &[&c])]).expect("merges");
        let (parsed, ds) = parse_manifest(&m.text, "x");
        assert!(ds.is_empty(), "{ds:?}\n{}", m.text);
        assert_eq!(parsed.map(|p| p.types.len()), Some(1));
        assert!(merge_into("{\"types\": [", &[type_entry("z", &[&c])]).is_err());
        assert!(merge_into("[1]", &[type_entry("z", &[&c])]).is_err());
    }
}
