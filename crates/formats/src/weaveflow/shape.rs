//! Checks a config object and a state map against a built-in type's shape and ports.

use indexmap::IndexMap;
use serde_json::{Map, Value};
use trellis_spec::diagnostic::pointer_push;
use trellis_spec::Severity;

use super::builtin::{BuiltinType, Ports};
use super::model::StateBinding;

/// A problem found: where, what, how bad.
#[derive(Debug, Clone)]
pub struct Problem {
    pub pointer: String,
    pub message: String,
    pub severity: Severity,
}

impl Problem {
    pub fn error(pointer: String, message: String) -> Self {
        Problem { pointer, message, severity: Severity::Error }
    }
    pub fn warning(pointer: String, message: String) -> Self {
        Problem { pointer, message, severity: Severity::Warning }
    }
}

/// Config keys: required ones present, known ones of the right kind, unknown ones a warning
/// when the reference lists the whole config. `what` names the owner ("state_set config"), `id`
/// the node (for the runtime's own words of a refusal, where its source gives them).
pub fn check_config(
    t: &BuiltinType,
    config: &Map<String, Value>,
    base: &str,
    what: &str,
    id: &str,
) -> Vec<Problem> {
    let mut out = Vec::new();
    for k in t.config.keys {
        match config.get(k.key) {
            None if k.required => out.push(Problem::error(
                pointer_push(base, k.key),
                format!("{what} requires \"{}\" ({})", k.key, k.kind.describe()),
            )),
            Some(v) if !k.kind.accepts(v) => out.push(Problem::error(
                pointer_push(base, k.key),
                match k.refusal {
                    Some(words) => words.replace("%q", &format!("\"{id}\"")),
                    None => format!("{what} field \"{}\" must be {}, got {v}", k.key, k.kind.describe()),
                },
            )),
            _ => {}
        }
    }
    if !t.config.open {
        for key in config.keys() {
            if !t.config.keys.iter().any(|k| k.key == key) {
                out.push(Problem::warning(
                    pointer_push(base, key),
                    format!("{what} field \"{key}\" is not a field of \"{}\"", t.name),
                ));
            }
        }
    }
    out
}

/// State ports: unknown ones a warning, required ones that are missing an error.
/// `required_is_error` is false where the reference does not say a port is mandatory.
pub fn check_ports(
    t: &BuiltinType,
    state: &IndexMap<String, StateBinding>,
    base: &str,
    what: &str,
) -> Vec<Problem> {
    let mut out = Vec::new();
    match t.ports {
        Ports::Unchecked => {}
        Ports::Dynamic { min } => {
            if state.len() < min {
                out.push(Problem::error(
                    base.to_owned(),
                    format!("{what} requires at least {min} state input{}", if min == 1 { "" } else { "s" }),
                ));
            }
        }
        Ports::Fixed { names, required } => {
            for port in state.keys() {
                if !names.contains(&port.as_str()) {
                    out.push(Problem::warning(
                        pointer_push(base, port),
                        format!("{what} has no state port \"{port}\" (ports: {})", names.join(", ")),
                    ));
                }
            }
            for r in required {
                if !state.contains_key(*r) {
                    out.push(Problem::error(
                        base.to_owned(),
                        format!("{what} requires the state port \"{r}\""),
                    ));
                }
            }
        }
    }
    out
}
