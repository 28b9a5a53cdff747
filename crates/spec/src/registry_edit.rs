//! Editing a registry manifest as data (the app's registry editor): create, rename, delete and
//! copy types; set a type's title, category, description and docs; add, change and remove
//! config fields as a form that writes JSON Schema. Pure: manifest text in, manifest text out.
//!
//! Every edit is refused with a sentence (nothing changes) when its input is bad: an empty or
//! duplicate type or field name, a name that clashes with `__start__`/`__end__`, or a result
//! the manifest reader rejects (an invalid schema, a default that breaks its own schema).

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use ts_rs::TS;

use crate::channel_refs::CHANNEL_KEYWORD;
use crate::manifest::{parse_manifest, type_name_problem};
use crate::model::{END, START};
use crate::registry::TypeInfo;

/// One config field, as the editor's form holds it.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct FieldForm {
    pub name: String,
    /// `string`, `number`, `integer`, `boolean`, `array`, `object`.
    pub json_type: String,
    #[serde(default)]
    pub required: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub default: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown[]")]
    pub enum_values: Option<Vec<Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub minimum: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub maximum: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub pattern: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub description: Option<String>,
    /// The field names a channel (`x-trellis-channel`).
    #[serde(default)]
    pub names_channel: bool,
}

/// One edit of a manifest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "op", rename_all = "snake_case")]
#[ts(export)]
pub enum RegistryEdit {
    CreateType {
        #[serde(rename = "type")]
        type_name: String,
    },
    RenameType {
        from: String,
        to: String,
    },
    DeleteType {
        #[serde(rename = "type")]
        type_name: String,
    },
    /// A copy of a type (a built-in one, to override it in the project).
    CopyType {
        #[ts(type = "import(\"./TypeInfo\").TypeInfo")]
        info: TypeInfo,
    },
    /// Sets (or, with `value` absent or empty, removes) `title`, `category`, `description`
    /// or `docs`.
    SetText {
        #[serde(rename = "type")]
        type_name: String,
        field: String,
        #[serde(default)]
        #[ts(optional)]
        value: Option<String>,
    },
    /// Adds a config field, or replaces the one named `previous` (a rename keeps its place).
    SetField {
        #[serde(rename = "type")]
        type_name: String,
        #[serde(default)]
        #[ts(optional)]
        previous: Option<String>,
        field: FieldForm,
    },
    RemoveField {
        #[serde(rename = "type")]
        type_name: String,
        name: String,
    },
}

const TEXT_FIELDS: [&str; 4] = ["title", "category", "description", "docs"];
const JSON_TYPES: [&str; 6] = ["string", "number", "integer", "boolean", "array", "object"];

fn check_name(what: &str, name: &str) -> Result<(), String> {
    if name.trim().is_empty() {
        return Err(format!("a {what} name cannot be empty"));
    }
    if name == START || name == END {
        return Err(format!(
            "\"{name}\" is reserved for the graph's start and end; choose another {what} name"
        ));
    }
    Ok(())
}

/// A new manifest text, or why the edit is refused. `manifest` empty means a new file.
pub fn apply(manifest: &str, edit: &RegistryEdit) -> Result<String, String> {
    let mut root: Value = if manifest.trim().is_empty() {
        json!({ "types": [] })
    } else {
        serde_json::from_str(manifest).map_err(|e| format!("the registry file is not JSON: {e}"))?
    };
    let types = root
        .get_mut("types")
        .and_then(Value::as_array_mut)
        .ok_or_else(|| "the registry file has no \"types\" list".to_owned())?;
    let index = |types: &[Value], name: &str| {
        types.iter().position(|t| t.get("type").and_then(Value::as_str) == Some(name))
    };
    let missing = |name: &str| format!("the registry file has no type \"{name}\"");
    match edit {
        RegistryEdit::CreateType { type_name }
        | RegistryEdit::CopyType { info: TypeInfo { type_name, .. } } => {
            check_name("type", type_name)?;
            if let Some(why) = type_name_problem(type_name) {
                return Err(format!("type name \"{type_name}\": {why}"));
            }
            if index(types, type_name).is_some() {
                return Err(format!("a type \"{type_name}\" already exists in this registry"));
            }
            let entry = match edit {
                RegistryEdit::CopyType { info } => {
                    // A copy is the project's own type: an example's mark does not follow it (a
                    // runtime's does: the copy still describes that runtime's type).
                    let mut info = info.clone();
                    if info.origin == Some(crate::registry::TypeOrigin::Example) {
                        info.origin = None;
                    }
                    serde_json::to_value(info).map_err(|e| e.to_string())?
                }
                _ => json!({
                    "type": type_name,
                    "title": crate::infer::title_of(type_name),
                    "category": crate::infer::CATEGORY,
                    "config_schema": {"type": "object", "properties": {}, "additionalProperties": true},
                }),
            };
            types.push(entry);
        }
        RegistryEdit::RenameType { from, to } => {
            check_name("type", to)?;
            if let Some(why) = type_name_problem(to) {
                return Err(format!("type name \"{to}\": {why}"));
            }
            let i = index(types, from).ok_or_else(|| missing(from))?;
            if from != to && index(types, to).is_some() {
                return Err(format!("a type \"{to}\" already exists in this registry"));
            }
            types[i]["type"] = json!(to);
        }
        RegistryEdit::DeleteType { type_name } => {
            let i = index(types, type_name).ok_or_else(|| missing(type_name))?;
            types.remove(i);
        }
        RegistryEdit::SetText { type_name, field, value } => {
            if !TEXT_FIELDS.contains(&field.as_str()) {
                return Err(format!("\"{field}\" is not one of {}", TEXT_FIELDS.join(", ")));
            }
            let i = index(types, type_name).ok_or_else(|| missing(type_name))?;
            let entry = types[i].as_object_mut().ok_or_else(|| missing(type_name))?;
            match value.as_deref().map(str::trim).filter(|v| !v.is_empty()) {
                Some(_) => {
                    entry.insert(field.clone(), json!(value.as_deref().unwrap_or_default()));
                }
                None => {
                    entry.shift_remove(field.as_str());
                }
            }
        }
        RegistryEdit::SetField { type_name, previous, field } => {
            check_name("field", &field.name)?;
            if !JSON_TYPES.contains(&field.json_type.as_str()) {
                return Err(format!(
                    "\"{}\" is not a JSON type; use one of {}",
                    field.json_type,
                    JSON_TYPES.join(", ")
                ));
            }
            let property = field_schema(field);
            check_default(field, &property)?;
            let i = index(types, type_name).ok_or_else(|| missing(type_name))?;
            let schema = schema_of(&mut types[i])?;
            let props = schema
                .entry("properties")
                .or_insert_with(|| json!({}))
                .as_object_mut()
                .ok_or_else(|| "the type's \"properties\" is not an object".to_owned())?;
            let replacing = previous.as_deref().filter(|p| props.contains_key(*p));
            if replacing != Some(field.name.as_str()) && props.contains_key(&field.name) {
                return Err(format!("type \"{type_name}\" already has a config field \"{}\"", field.name));
            }
            match replacing {
                Some(old) => {
                    // Rebuilt in order so a renamed field keeps its place.
                    let rebuilt: Map<String, Value> = std::mem::take(props)
                        .into_iter()
                        .map(|(k, v)| if k == old { (field.name.clone(), property.clone()) } else { (k, v) })
                        .collect();
                    *props = rebuilt;
                }
                None => {
                    props.insert(field.name.clone(), property);
                }
            }
            // `required` keeps the user's order: a field that stays required keeps its place
            // (under its new name when renamed); only a newly required one goes at the end.
            let was = |r: &Value| {
                let r = r.as_str();
                r == Some(field.name.as_str()) || (r.is_some() && r == replacing)
            };
            let before: Vec<Value> =
                schema.get("required").and_then(Value::as_array).cloned().unwrap_or_default();
            let place = before.iter().position(was);
            let mut required: Vec<Value> = Vec::with_capacity(before.len() + 1);
            for (k, r) in before.into_iter().enumerate() {
                if Some(k) == place && field.required {
                    required.push(json!(field.name));
                } else if !was(&r) {
                    required.push(r);
                }
            }
            if field.required && place.is_none() {
                required.push(json!(field.name));
            }
            if required.is_empty() {
                schema.shift_remove("required");
            } else {
                schema.insert("required".into(), Value::Array(required));
            }
        }
        RegistryEdit::RemoveField { type_name, name } => {
            let i = index(types, type_name).ok_or_else(|| missing(type_name))?;
            let schema = schema_of(&mut types[i])?;
            let removed = schema
                .get_mut("properties")
                .and_then(Value::as_object_mut)
                .and_then(|p| p.shift_remove(name));
            if removed.is_none() {
                return Err(format!("type \"{type_name}\" has no config field \"{name}\""));
            }
            if let Some(r) = schema.get_mut("required").and_then(Value::as_array_mut) {
                r.retain(|v| v.as_str() != Some(name.as_str()));
                if r.is_empty() {
                    schema.shift_remove("required");
                }
            }
        }
    }
    let mut text = serde_json::to_string_pretty(&root).map_err(|e| e.to_string())?;
    text.push('\n');
    // The result must be a manifest the reader accepts without an error.
    let (_, diagnostics) = parse_manifest(&text, "registry");
    if let Some(d) = diagnostics.iter().find(|d| d.is_error()) {
        return Err(format!(
            "refused: {} (at {})",
            d.message,
            if d.pointer.is_empty() { "/" } else { &d.pointer }
        ));
    }
    Ok(text)
}

/// The type's `config_schema` object (made an empty object schema when missing or a boolean).
fn schema_of(entry: &mut Value) -> Result<&mut Map<String, Value>, String> {
    let entry = entry.as_object_mut().ok_or_else(|| "a \"types\" entry is not an object".to_owned())?;
    if !entry.get("config_schema").is_some_and(Value::is_object) {
        entry.insert(
            "config_schema".into(),
            json!({"type": "object", "properties": {}, "additionalProperties": true}),
        );
    }
    entry
        .get_mut("config_schema")
        .and_then(Value::as_object_mut)
        .ok_or_else(|| "the type's config schema is not an object".to_owned())
}

/// A field's default must satisfy the field's own schema.
fn check_default(f: &FieldForm, property: &Value) -> Result<(), String> {
    let Some(default) = &f.default else { return Ok(()) };
    let mut bare = property.clone();
    if let Some(m) = bare.as_object_mut() {
        m.shift_remove("default");
    }
    let validator = crate::config_schema::compile(&bare).map_err(|problems| {
        let first = problems.first().map_or_else(|| "it does not compile".to_owned(), |p| p.message.clone());
        format!("refused: the schema of field \"{}\" is not valid: {first}", f.name)
    })?;
    if let Some(e) = validator.iter_errors(default).next() {
        return Err(format!(
            "refused: the default of field \"{}\" breaks its own schema: {}",
            f.name,
            crate::config_schema::describe(&e)
        ));
    }
    Ok(())
}

/// The JSON Schema of one form field.
pub fn field_schema(f: &FieldForm) -> Value {
    let mut s = Map::new();
    s.insert("type".into(), json!(f.json_type));
    if let Some(d) = f.description.as_deref().filter(|d| !d.trim().is_empty()) {
        s.insert("description".into(), json!(d));
    }
    if let Some(v) = &f.enum_values {
        if !v.is_empty() {
            s.insert("enum".into(), Value::Array(v.clone()));
        }
    }
    if let Some(m) = f.minimum {
        s.insert("minimum".into(), number(m));
    }
    if let Some(m) = f.maximum {
        s.insert("maximum".into(), number(m));
    }
    if let Some(p) = f.pattern.as_deref().filter(|p| !p.is_empty()) {
        s.insert("pattern".into(), json!(p));
    }
    if let Some(d) = &f.default {
        s.insert("default".into(), d.clone());
    }
    if f.names_channel {
        s.insert(CHANNEL_KEYWORD.into(), json!(true));
    }
    Value::Object(s)
}

/// A whole number stays an integer in the JSON text (`10`, not `10.0`).
fn number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        // Exact: a whole number below 2^53.
        #[allow(clippy::cast_possible_truncation)]
        let i = x as i64;
        json!(i)
    } else {
        json!(x)
    }
}

/// The form of a property schema (what the editor shows for a field).
pub fn field_form(name: &str, schema: &Value, required: bool) -> FieldForm {
    let f = |k: &str| schema.get(k);
    FieldForm {
        name: name.to_owned(),
        json_type: f("type").and_then(Value::as_str).unwrap_or("string").to_owned(),
        required,
        default: f("default").cloned(),
        enum_values: f("enum").and_then(Value::as_array).cloned(),
        minimum: f("minimum").and_then(Value::as_f64),
        maximum: f("maximum").and_then(Value::as_f64),
        pattern: f("pattern").and_then(Value::as_str).map(str::to_owned),
        description: f("description").and_then(Value::as_str).map(str::to_owned),
        names_channel: f(CHANNEL_KEYWORD).and_then(Value::as_bool) == Some(true),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(name: &str, t: &str) -> FieldForm {
        FieldForm { name: name.into(), json_type: t.into(), ..FieldForm::default() }
    }

    #[test]
    fn types_and_fields_are_created_renamed_and_removed() {
        let t = apply("", &RegistryEdit::CreateType { type_name: "planner".into() }).expect("created");
        let mut f = field("depth", "integer");
        f.maximum = Some(10.0);
        f.required = true;
        f.default = Some(json!(3));
        let t = apply(
            &t,
            &RegistryEdit::SetField { type_name: "planner".into(), previous: None, field: f.clone() },
        )
        .expect("field");
        let v: Value = serde_json::from_str(&t).expect("json");
        assert_eq!(
            v["types"][0]["config_schema"]["properties"]["depth"],
            json!({"type": "integer", "maximum": 10, "default": 3})
        );
        assert_eq!(v["types"][0]["config_schema"]["required"], json!(["depth"]));
        let mut renamed = f.clone();
        renamed.name = "levels".into();
        renamed.names_channel = false;
        let t = apply(
            &t,
            &RegistryEdit::SetField {
                type_name: "planner".into(),
                previous: Some("depth".into()),
                field: renamed,
            },
        )
        .expect("renamed");
        let v: Value = serde_json::from_str(&t).expect("json");
        assert!(v["types"][0]["config_schema"]["properties"].get("depth").is_none());
        assert_eq!(v["types"][0]["config_schema"]["required"], json!(["levels"]));
        let t = apply(&t, &RegistryEdit::RenameType { from: "planner".into(), to: "plan2".into() })
            .expect("renamed");
        let t = apply(&t, &RegistryEdit::RemoveField { type_name: "plan2".into(), name: "levels".into() })
            .expect("removed");
        let v: Value = serde_json::from_str(&t).expect("json");
        assert!(v["types"][0]["config_schema"].get("required").is_none());
        let t = apply(&t, &RegistryEdit::DeleteType { type_name: "plan2".into() }).expect("deleted");
        assert_eq!(serde_json::from_str::<Value>(&t).expect("json")["types"], json!([]));
    }

    #[test]
    fn required_keeps_the_users_order_when_a_field_is_saved() {
        let text = r#"{"types": [{"type": "t", "config_schema": {"type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "string"}, "c": {"type": "string"}},
            "required": ["c", "a", "b"]}}]}"#;
        let set = |text: &str, previous: &str, name: &str, required: bool| {
            let mut f = field(name, "string");
            f.required = required;
            f.description = Some("edited".into());
            let edit =
                RegistryEdit::SetField { type_name: "t".into(), previous: Some(previous.into()), field: f };
            let t = apply(text, &edit).expect("saved");
            let v: Value = serde_json::from_str(&t).expect("json");
            (t, v["types"][0]["config_schema"]["required"].clone())
        };
        let (t, required) = set(text, "a", "a", true);
        assert_eq!(required, json!(["c", "a", "b"]), "an edit of a required field keeps its place");
        let (t, required) = set(&t, "a", "z", true);
        assert_eq!(required, json!(["c", "z", "b"]), "renamed in place");
        let (t, required) = set(&t, "z", "z", false);
        assert_eq!(required, json!(["c", "b"]));
        let (_, required) = set(&t, "z", "z", true);
        assert_eq!(required, json!(["c", "b", "z"]), "a newly required field goes at the end");
    }

    #[test]
    fn bad_input_is_refused_with_a_reason() {
        let t = apply("", &RegistryEdit::CreateType { type_name: "a".into() }).expect("created");
        let refuse = |e: RegistryEdit| apply(&t, &e).expect_err("refused");
        assert!(refuse(RegistryEdit::CreateType { type_name: " ".into() }).contains("empty"));
        assert!(refuse(RegistryEdit::CreateType { type_name: "a".into() }).contains("already exists"));
        assert!(refuse(RegistryEdit::CreateType { type_name: "__start__".into() }).contains("reserved"));
        assert!(
            refuse(RegistryEdit::RenameType { from: "a".into(), to: "__end__".into() }).contains("reserved")
        );
        let mut bad_default = field("n", "integer");
        bad_default.maximum = Some(10.0);
        bad_default.default = Some(json!(11));
        let why =
            refuse(RegistryEdit::SetField { type_name: "a".into(), previous: None, field: bad_default });
        assert!(why.contains("default"), "{why}");
        let mut bad_pattern = field("s", "string");
        bad_pattern.pattern = Some("(".into());
        assert!(refuse(RegistryEdit::SetField { type_name: "a".into(), previous: None, field: bad_pattern })
            .starts_with("refused"));
        assert!(refuse(RegistryEdit::SetField {
            type_name: "a".into(),
            previous: None,
            field: field("x", "strin")
        })
        .contains("JSON type"));
        let t2 = apply(
            &t,
            &RegistryEdit::SetField { type_name: "a".into(), previous: None, field: field("x", "string") },
        )
        .expect("ok");
        assert!(apply(
            &t2,
            &RegistryEdit::SetField { type_name: "a".into(), previous: None, field: field("x", "integer") }
        )
        .expect_err("duplicate")
        .contains("already has"));
    }
}
