//! What every rule is written with: the [`Checker`] that collects diagnostics, where a value
//! sits ([`At`]: its pointer and span), and the readers of one field (a string, a node id, a
//! number, a mapping) that say what is wrong with it.

use super::codes;
use crate::graphmd::model::id_text;
use crate::graphmd::yaml::{Map, Resolved, Yaml};
use trellis_spec::diagnostic::pointer_push;
use trellis_spec::{Diagnostic, Span};

pub(super) struct Checker {
    pub(super) out: Vec<Diagnostic>,
}

/// Where a value is: its pointer and the best span (its own, or its container's when absent).
#[derive(Clone)]
pub(super) struct At {
    pub(super) ptr: String,
    pub(super) span: Option<Span>,
}

impl At {
    pub(super) fn child(&self, key: &str, m: &Map) -> At {
        let span = m.entry(key).and_then(|e| e.value.span.or(e.key_span)).or(self.span);
        At { ptr: pointer_push(&self.ptr, key), span }
    }
    pub(super) fn index(&self, i: usize, y: &Yaml) -> At {
        At { ptr: pointer_push(&self.ptr, &i.to_string()), span: y.span.or(self.span) }
    }
    pub(super) fn key(&self, key: &str, m: &Map) -> At {
        let span = m.entry(key).and_then(|e| e.key_span).or(self.span);
        At { ptr: pointer_push(&self.ptr, key), span }
    }
}

impl Checker {
    pub(super) fn push(&mut self, mut d: Diagnostic, at: &At) -> &mut Diagnostic {
        d.pointer = at.ptr.clone();
        d.span = at.span;
        self.out.push(d);
        let last = self.out.len() - 1;
        &mut self.out[last]
    }
    pub(super) fn error(&mut self, code: &str, msg: String, at: &At) -> &mut Diagnostic {
        self.push(Diagnostic::error(code, msg), at)
    }
    pub(super) fn warning(&mut self, code: &str, msg: String, at: &At) -> &mut Diagnostic {
        self.push(Diagnostic::warning(code, msg), at)
    }

    pub(super) fn unknown_keys(&mut self, m: &Map, at: &At, known: &[&[&str]], what: &str) {
        for e in &m.entries {
            if !known.iter().any(|k| k.contains(&e.key.value.as_str())) {
                let a = at.key(&e.key.value, m);
                self.warning(
                    codes::UNKNOWN_FIELD,
                    format!(
                        "{what} has a field `{}` this editor does not know; it is kept as written",
                        e.key.value
                    ),
                    &a,
                );
            }
        }
    }

    pub(super) fn string(
        &mut self,
        m: &Map,
        key: &str,
        at: &At,
        what: &str,
        required: bool,
    ) -> Option<String> {
        let a = at.child(key, m);
        match m.get(key) {
            None => {
                if required {
                    self.error(codes::MISSING_FIELD, format!("{what} needs `{key}`"), at);
                }
                None
            }
            Some(y) => match y.as_str() {
                Some(s) if !s.is_empty() => Some(s.to_owned()),
                _ => {
                    self.error(
                        codes::WRONG_TYPE,
                        format!("`{key}` of {what} must be a non-empty string, not {}", y.kind_word()),
                        &a,
                    );
                    None
                }
            },
        }
    }

    pub(super) fn id_ref(
        &mut self,
        m: &Map,
        key: &str,
        at: &At,
        what: &str,
        required: bool,
    ) -> Option<String> {
        match m.get(key) {
            None => {
                if required {
                    self.error(codes::MISSING_FIELD, format!("{what} needs `{key}`"), at);
                }
                None
            }
            Some(y) => {
                let r = id_text(y);
                if r.is_none() {
                    let a = at.child(key, m);
                    self.error(
                        codes::WRONG_TYPE,
                        format!("`{key}` of {what} must be a node id, not {}", y.kind_word()),
                        &a,
                    );
                }
                r
            }
        }
    }

    pub(super) fn uint(&mut self, m: &Map, key: &str, at: &At, what: &str, min: u64) -> Option<u64> {
        let y = m.get(key)?;
        let a = at.child(key, m);
        match y.as_scalar().map(|s| s.resolve()) {
            Some(Resolved::Int(n)) if n >= i128::from(min) => u64::try_from(n).ok().or_else(|| {
                self.error(codes::INVALID_VALUE, format!("`{key}` of {what} is too large"), &a);
                None
            }),
            Some(Resolved::Int(n)) => {
                self.error(
                    codes::INVALID_VALUE,
                    format!("`{key}` of {what} must be at least {min}, not {n}"),
                    &a,
                );
                None
            }
            _ => {
                self.error(
                    codes::WRONG_TYPE,
                    format!("`{key}` of {what} must be a whole number, not {}", shown(y)),
                    &a,
                );
                None
            }
        }
    }

    pub(super) fn number(
        &mut self,
        m: &Map,
        key: &str,
        at: &At,
        what: &str,
        range: (f64, Option<f64>),
    ) -> Option<f64> {
        let y = m.get(key)?;
        let a = at.child(key, m);
        let v = match y.as_scalar().map(|s| s.resolve()) {
            Some(Resolved::Int(n)) => n as f64,
            Some(Resolved::Float(f)) => f,
            _ => {
                self.error(
                    codes::WRONG_TYPE,
                    format!("`{key}` of {what} must be a number, not {}", shown(y)),
                    &a,
                );
                return None;
            }
        };
        let ok = v.is_finite() && v >= range.0 && range.1.is_none_or(|hi| v <= hi);
        if !ok {
            let want = match range.1 {
                Some(hi) => format!("between {} and {hi}", range.0),
                None => format!("a finite number of at least {}", range.0),
            };
            self.error(
                codes::INVALID_VALUE,
                format!(
                    "`{key}` of {what} must be {want}, not {}",
                    y.as_scalar().map_or("?", |s| s.value.as_str())
                ),
                &a,
            );
            return None;
        }
        Some(v)
    }

    pub(super) fn map_field<'m>(&mut self, m: &'m Map, key: &str, at: &At, what: &str) -> Option<&'m Map> {
        let y = m.get(key)?;
        let r = y.as_map();
        if r.is_none() {
            let a = at.child(key, m);
            self.error(
                codes::WRONG_TYPE,
                format!("`{key}` of {what} must be a mapping, not {}", y.kind_word()),
                &a,
            );
        }
        r
    }
}

/// A value for a message: a scalar's text in backquotes, otherwise its kind.
pub(super) fn shown(y: &Yaml) -> String {
    match y.as_scalar() {
        Some(s) if s.value.chars().count() <= 40 => format!("`{}`", s.value),
        _ => y.kind_word().to_owned(),
    }
}
