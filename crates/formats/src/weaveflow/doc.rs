//! An open Weaveflow document: the raw JSON value as read (key order, number text, values the
//! typed view does not interpret) beside the typed view. The raw value is what gets written,
//! so an unedited document comes back as it was read; a typed edit is merged into the raw
//! value keeping the original key order (formats.md §2.5: do not copy Go's output).
//!
//! A transfer file (an export bundle or an upload envelope, `transfer.rs`) is the same: its raw
//! value is the whole file, the typed view is the definition it carries (with a bundle's
//! `ui.web` as its `metadata.web`), and an edit changes only the definition (and `ui.web`), so
//! everything else in the file is written back as it was.

use serde_json::{Map, Value};

use super::model::GraphDefinition;
use super::transfer::{self, Transfer};

/// A Graph Definition as the editor holds it.
#[derive(Debug, Clone, PartialEq)]
pub struct WeaveflowDoc {
    value: Value,
    definition: GraphDefinition,
    transfer: Option<Transfer>,
}

impl WeaveflowDoc {
    /// Pairs a raw value with its typed view (the reader does this; the view must describe the
    /// value, or the definition inside it when `transfer` says the value is a transfer file).
    pub(crate) fn from_parts(value: Value, definition: GraphDefinition, transfer: Option<Transfer>) -> Self {
        WeaveflowDoc { value, definition, transfer }
    }

    /// A new document from a typed definition, written in Go's field order with Go's
    /// `omitempty` rules (node `name` and `state` always present).
    pub fn from_definition(definition: GraphDefinition) -> Self {
        let value = to_value(&definition);
        WeaveflowDoc { value, definition, transfer: None }
    }

    /// The raw JSON value that the writer serializes: the whole file.
    pub fn value(&self) -> &Value {
        &self.value
    }

    /// The definition's raw value: the file's, or the one a transfer file carries.
    pub fn definition_value(&self) -> &Value {
        match self.transfer {
            Some(_) => self.value.get("definition").unwrap_or(&Value::Null),
            None => &self.value,
        }
    }

    /// The file around the definition, when it is a transfer file.
    pub fn transfer(&self) -> Option<&Transfer> {
        self.transfer.as_ref()
    }

    /// The typed view.
    pub fn definition(&self) -> &GraphDefinition {
        &self.definition
    }

    /// Replaces the typed view and merges it into the raw value: keys keep their original
    /// order, new keys go after them, removed keys disappear, and a field that was absent and
    /// is still empty stays absent (Go reads absent and empty alike), so only what changed
    /// changes in the file. In a transfer file only the definition (and a bundle's `ui.web`)
    /// is merged; the rest of the file is left as it is.
    pub fn set_definition(&mut self, definition: GraphDefinition) {
        let mut new = to_value(&definition);
        match (self.transfer, self.value.as_object_mut()) {
            (Some(t), Some(root)) => {
                let web = if t.web_in_ui { transfer::take_web(&mut new) } else { None };
                let merged = match root.get("definition") {
                    Some(old) => merge(old, new),
                    None => new,
                };
                root.insert("definition".into(), merged);
                if t.web_in_ui {
                    transfer::set_ui_web(root, web, merge);
                }
            }
            _ => self.value = merge(&self.value, new),
        }
        self.definition = definition;
    }

    /// Both halves at once, for an editor's undo: a step recorded as small changes of the
    /// raw value and of the typed view puts both back exactly as they were (re-merging the
    /// view would not give the raw value's old text back). The caller keeps them describing
    /// each other.
    pub fn parts_mut(&mut self) -> (&mut Value, &mut GraphDefinition) {
        (&mut self.value, &mut self.definition)
    }

    /// Applies an edit to a copy of the typed view and merges it (see `set_definition`).
    pub fn edit(&mut self, f: impl FnOnce(&mut GraphDefinition)) {
        let mut d = self.definition.clone();
        f(&mut d);
        self.set_definition(d);
    }
}

/// The typed view as a JSON value. Serializing these plain structs cannot fail; should it ever,
/// an empty object is better than a panic in an editor.
fn to_value(definition: &GraphDefinition) -> Value {
    serde_json::to_value(definition).unwrap_or_else(|_| Value::Object(Map::new()))
}

/// True for what Go's `omitempty` treats as empty (and what reads back the same as absent).
fn is_empty(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        Value::Number(_) => false,
    }
}

/// Merges `new` into `old`, keeping `old`'s key order and `old`'s text where equal.
pub(crate) fn merge(old: &Value, new: Value) -> Value {
    match (old, new) {
        (Value::Object(o), Value::Object(mut n)) => {
            let mut out = Map::new();
            for (k, ov) in o {
                match n.shift_remove(k) {
                    Some(nv) => {
                        out.insert(k.clone(), merge(ov, nv));
                    }
                    // Absent in the typed output: either removed, or an empty value that the
                    // serializer omits. Keep an empty original (`"edges": []`), drop the rest.
                    None if is_empty(ov) => {
                        out.insert(k.clone(), ov.clone());
                    }
                    None => {}
                }
            }
            // New keys: an empty value reads the same as an absent one, so leave it out.
            for (k, nv) in n {
                if !is_empty(&nv) {
                    out.insert(k, nv);
                }
            }
            Value::Object(out)
        }
        (Value::Array(o), Value::Array(n)) => merge_array(o, n),
        // A null the typed view read as empty stays null while it is still empty.
        (Value::Null, n) if is_empty(&n) => Value::Null,
        // Equal numbers keep their original text ("1.0" stays "1.0").
        (Value::Number(a), Value::Number(b)) if a.as_f64() == b.as_f64() => Value::Number(a.clone()),
        (_, n) => n,
    }
}

/// Elements that carry an `id` are matched by id (a removed node does not shift the key order
/// of the ones after it onto the wrong node); others by index.
fn merge_array(old: &[Value], new: Vec<Value>) -> Value {
    let id = |v: &Value| v.get("id").and_then(Value::as_str).map(str::to_owned);
    // Index of the old elements by id (first one wins), so matching stays linear.
    let mut by_id: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (i, o) in old.iter().enumerate() {
        if let Some(oid) = id(o) {
            by_id.entry(oid).or_insert(i);
        }
    }
    let out = new
        .into_iter()
        .enumerate()
        .map(|(i, nv)| {
            let partner = match id(&nv) {
                Some(nid) => by_id.get(&nid).and_then(|&j| old.get(j)),
                None => old.get(i),
            };
            match partner {
                Some(ov) => merge(ov, nv),
                None => nv,
            }
        })
        .collect();
    Value::Array(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::weaveflow::read::parse;
    use crate::weaveflow::write::to_string;

    const TEXT: &str = r#"{
  "version": "1.0",
  "state_modules": [{"name": "weaveflow.protocols", "version": "1"}],
  "entry_point": "a",
  "nodes": [
    {"type": "state_set", "id": "a", "config": {"value": 1.0, "z": 2}, "state": {"target": {"path": "shared.x"}}},
    {"id": "b", "type": "state_delete"}
  ],
  "edges": []
}
"#;

    #[test]
    fn an_edit_changes_only_the_edited_value() {
        let parsed = parse(TEXT);
        let mut doc = parsed.doc.expect("doc");
        doc.edit(|d| {
            d.nodes[0].config.insert("z".into(), Value::from(3));
        });
        let out = to_string(&doc);
        let expected = to_string(&parse(&TEXT.replace("\"z\": 2", "\"z\": 3")).doc.expect("doc"));
        assert_eq!(out, expected);
        // Key order of the first node kept (type before id), absent name/state on "b" stay absent.
        assert!(out.contains("\"type\": \"state_set\",\n      \"id\": \"a\""), "{out}");
        assert!(!out.contains("\"name\": \"a\"") && !out.contains("\"state\": {}"), "{out}");
        assert!(out.contains("\"value\": 1.0"), "{out}");
    }

    #[test]
    fn new_fields_are_added_and_removed_nodes_go() {
        let mut doc = parse(TEXT).doc.expect("doc");
        doc.edit(|d| {
            d.nodes.remove(0);
            d.nodes[0].name = "Bee".into();
            d.description = "hello".into();
        });
        let v = doc.value();
        assert_eq!(v["nodes"].as_array().map(Vec::len), Some(1));
        assert_eq!(v["nodes"][0]["name"], "Bee");
        assert_eq!(v["description"], "hello");
        assert_eq!(v["edges"], Value::Array(vec![]));
    }

    #[test]
    fn new_documents_follow_go_field_order() {
        let mut d = GraphDefinition { version: "1.0".into(), ..Default::default() };
        d.nodes.push(crate::weaveflow::model::GraphNode {
            id: "a".into(),
            type_name: "state_delete".into(),
            ..Default::default()
        });
        let doc = WeaveflowDoc::from_definition(d);
        let keys: Vec<_> =
            doc.value()["nodes"][0].as_object().map(|o| o.keys().cloned().collect()).unwrap_or_default();
        assert_eq!(keys, ["id", "name", "type", "state"]);
    }
}
