//! The rules on a judge node's own fields (v1.1): seat, decision model, questions and
//! options, state tokens, timeout, fallback, the events it fires on and its threshold.

use super::checker::{At, Checker};
use super::codes;
use crate::graphmd::model::JUDGE_SEATS;
use crate::graphmd::topology::{Estimates, Items, Judge};
use crate::graphmd::yaml::{Map, Node};

impl Checker {
    pub(super) fn items(&mut self, m: &Map, key: &str, a: &At, what: &str) -> Option<Items> {
        let y = m.get(key)?;
        let ak = a.child(key, m);
        match &y.node {
            Node::Seq(s) => {
                let mut out = Vec::new();
                for (i, item) in s.items.iter().enumerate() {
                    match item.as_str() {
                        Some(t) => out.push(t.to_owned()),
                        None => {
                            let ai = ak.index(i, item);
                            self.error(
                                codes::WRONG_TYPE,
                                format!("`{key}` of {what} must list strings, not {}", item.kind_word()),
                                &ai,
                            );
                        }
                    }
                }
                if s.items.is_empty() {
                    self.error(codes::INVALID_VALUE, format!("`{key}` of {what} must not be empty"), &ak);
                    return None;
                }
                Some(Items::List(out))
            }
            _ => self.uint(m, key, a, what, 1).map(Items::Count),
        }
    }

    pub(super) fn judge(&mut self, m: &Map, a: &At, what: &str, est: &Estimates) -> Option<Judge> {
        let seat = self.string(m, "seat", a, what, true);
        if let Some(s) = &seat {
            if !JUDGE_SEATS.contains(&s.as_str()) {
                let ak = a.child("seat", m);
                self.error(
                    codes::UNKNOWN_SEAT,
                    format!("{what} has seat `{s}`; expected one of {}", JUDGE_SEATS.join(", ")),
                    &ak,
                );
            }
        }
        let decision_model = self.string(m, "decision_model", a, what, true);
        if m.get("questions").is_none() {
            self.error(codes::MISSING_FIELD, format!("{what} needs `questions` (a count or a list)"), a);
        }
        let questions = self.items(m, "questions", a, what);
        let options = match (m.get("options_count").is_some(), m.get("options").is_some()) {
            (true, true) => {
                let ak = a.key("options", m);
                self.error(
                    codes::CONFLICTING_FIELDS,
                    format!("{what} gives both `options_count` and `options`; keep one"),
                    &ak,
                );
                None
            }
            (false, false) => {
                self.error(
                    codes::MISSING_FIELD,
                    format!("{what} needs `options_count` (or an `options` list)"),
                    a,
                );
                None
            }
            (true, false) => {
                if m.get("options_count").is_some_and(|y| y.as_seq().is_some()) {
                    let ak = a.child("options_count", m);
                    self.error(
                        codes::WRONG_TYPE,
                        format!("`options_count` of {what} is a count; write the list as `options`"),
                        &ak,
                    );
                    None
                } else {
                    self.uint(m, "options_count", a, what, 1).map(Items::Count)
                }
            }
            (false, true) => {
                match m.get("options").map(|y| &y.node) {
                    Some(Node::Seq(_)) => self.items(m, "options", a, what),
                    _ => {
                        let ak = a.child("options", m);
                        self.error(codes::WRONG_TYPE, format!("`options` of {what} must be a list of strings (use `options_count` for a count)"), &ak);
                        None
                    }
                }
            }
        };
        let top = m.get("state_tokens").is_some();
        let state_tokens = match (top, est.state_tokens) {
            (true, Some(_)) => {
                let ak = a.key("state_tokens", m);
                self.error(
                    codes::CONFLICTING_FIELDS,
                    format!("{what} gives `state_tokens` both at the top and under `estimates`; keep one"),
                    &ak,
                );
                None
            }
            (true, None) => self.uint(m, "state_tokens", a, what, 0),
            (false, Some(t)) => Some(t),
            (false, None) => {
                self.error(
                    codes::MISSING_FIELD,
                    format!("{what} needs `state_tokens` (or `estimates: {{state_tokens: N}}`)"),
                    a,
                );
                None
            }
        };
        if m.get("timeout_ms").is_none() {
            self.error(codes::MISSING_FIELD, format!("{what} needs `timeout_ms`"), a);
        }
        let timeout_ms = self.uint(m, "timeout_ms", a, what, 1);
        let fallback = self.id_ref(m, "fallback", a, what, true);
        let fires_on = self.fires_on(m, a, what);
        let confidence_threshold = self.number(m, "confidence_threshold", a, what, (0.0, Some(1.0)));
        Some(Judge {
            seat: seat?,
            decision_model: decision_model?,
            questions: questions?,
            options: options?,
            state_tokens: state_tokens?,
            timeout_ms: timeout_ms?,
            fallback: fallback?,
            fires_on: fires_on?,
            confidence_threshold,
        })
    }

    pub(super) fn fires_on(&mut self, m: &Map, a: &At, what: &str) -> Option<Vec<String>> {
        let Some(y) = m.get("fires_on") else {
            self.error(
                codes::MISSING_FIELD,
                format!("{what} needs `fires_on` (an event name or a list of them)"),
                a,
            );
            return None;
        };
        let ak = a.child("fires_on", m);
        if let Some(s) = y.as_str().filter(|s| !s.is_empty()) {
            return Some(vec![s.to_owned()]);
        }
        let list: Option<Vec<String>> = y.as_seq().filter(|s| !s.items.is_empty()).and_then(|s| {
            s.items.iter().map(|i| i.as_str().filter(|t| !t.is_empty()).map(str::to_owned)).collect()
        });
        if list.is_none() {
            self.error(
                codes::WRONG_TYPE,
                format!("`fires_on` of {what} must be an event name or a non-empty list of event names"),
                &ak,
            );
        }
        list
    }
}
