//! Execution policies and run limits (formats.md §2.2, `graph/execution_policy.go@00aca43`):
//! Go duration strings, integers >= 1, a jitter between 0 and 1, a backoff multiplier >= 1 and
//! error classes from Weaveflow's list. Messages follow Go's: `<name> "<v>" is invalid: …`,
//! `<name> must be greater than zero`, `<name> cannot be negative`, wrapped in
//! `node "<id>" execution policy: …` for a node.

use serde_json::Value;
use trellis_spec::diagnostic::pointer_push;
use trellis_spec::Diagnostic;

use super::builtin::ERROR_CLASSES;
use super::codes;
use super::model::{ExecutionPolicy, GraphPolicy, Limits};

/// Parses a Go duration ("90m", "1h30m", "250ms", "-1.5s", "0") into nanoseconds. The error
/// is Go's own text (`time: invalid duration "x"`).
pub fn parse_go_duration(s: &str) -> Result<i128, String> {
    let invalid = || format!("time: invalid duration \"{s}\"");
    let (neg, mut rest) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if rest == "0" {
        return Ok(0);
    }
    if rest.is_empty() {
        return Err(invalid());
    }
    let mut total: f64 = 0.0;
    while !rest.is_empty() {
        let num_len = rest.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(rest.len());
        let num = &rest[..num_len];
        // Go requires at least one digit and accepts "1.", ".5".
        if num.is_empty() || num == "." || num.matches('.').count() > 1 {
            return Err(invalid());
        }
        let value: f64 = num.parse().or_else(|_| format!("{num}0").parse()).map_err(|_| invalid())?;
        rest = &rest[num_len..];
        let unit_len = rest.find(|c: char| c.is_ascii_digit() || c == '.').unwrap_or(rest.len());
        let unit = &rest[..unit_len];
        let scale: f64 = match unit {
            "ns" => 1.0,
            "us" | "µs" | "μs" => 1e3,
            "ms" => 1e6,
            "s" => 1e9,
            "m" => 60e9,
            "h" => 3600e9,
            "" => return Err(format!("time: missing unit in duration \"{s}\"")),
            other => return Err(format!("time: unknown unit \"{other}\" in duration \"{s}\"")),
        };
        total += value * scale;
        rest = &rest[unit_len..];
    }
    // Go's limit is the i64 range of nanoseconds (about 290 years).
    if total > 9.223_372_036_854_775e18 {
        return Err(invalid());
    }
    // Rounded to whole nanoseconds; the range was checked above.
    #[allow(clippy::cast_possible_truncation)]
    let ns = total.round() as i128;
    Ok(if neg { -ns } else { ns })
}

struct Check<'a> {
    out: &'a mut Vec<Diagnostic>,
    /// "node \"x\" execution policy: " or "graph policy: ".
    prefix: String,
    node: Option<String>,
}

impl Check<'_> {
    fn push(&mut self, pointer: &str, message: String) {
        let mut d = Diagnostic::error(codes::POLICY_INVALID, format!("{}{message}", self.prefix)).at(pointer);
        if let Some(id) = &self.node {
            d = d.on_node(id.clone());
        }
        self.out.push(d);
    }

    fn duration(&mut self, base: &str, key: &str, name: &str, v: &str) {
        if v.trim().is_empty() {
            return;
        }
        match parse_go_duration(v.trim()) {
            Err(e) => self.push(&pointer_push(base, key), format!("{name} \"{v}\" is invalid: {e}")),
            Ok(ns) if ns < 0 => self.push(&pointer_push(base, key), format!("{name} cannot be negative")),
            Ok(_) => {}
        }
    }

    fn count(&mut self, base: &str, key: &str, name: &str, v: Option<&Value>) {
        let Some(v) = v else { return };
        let at = pointer_push(base, key);
        match v.as_i64() {
            Some(i) if i >= 1 => {}
            Some(_) => self.push(&at, format!("{name} must be greater than zero")),
            None if v.as_u64().is_some() => {}
            None => self.push(&at, format!("{name} {v} is invalid: expected a whole number")),
        }
    }

    fn classes(&mut self, base: &str, key: &str, name: &str, list: &[String]) {
        for (i, c) in list.iter().enumerate() {
            if !ERROR_CLASSES.contains(&c.trim()) {
                self.push(
                    &pointer_push(&pointer_push(base, key), &i.to_string()),
                    format!(
                        "{name} error class \"{c}\" is invalid; expected one of: {}",
                        ERROR_CLASSES.join(", ")
                    ),
                );
            }
        }
    }

    fn execution(&mut self, base: &str, p: &ExecutionPolicy) {
        self.duration(base, "timeout", "timeout", &p.timeout);
        self.count(base, "max_concurrency", "max_concurrency", p.max_concurrency.as_ref());
        let Some(r) = &p.retry else { return };
        let rb = pointer_push(base, "retry");
        self.count(&rb, "max_attempts", "retry max_attempts", r.max_attempts.as_ref());
        self.duration(&rb, "initial_interval", "retry initial_interval", &r.initial_interval);
        self.duration(&rb, "max_interval", "retry max_interval", &r.max_interval);
        if let Some(m) = &r.backoff_multiplier {
            if m.as_f64().is_some_and(|m| m < 1.0) {
                self.push(
                    &pointer_push(&rb, "backoff_multiplier"),
                    format!("retry backoff_multiplier {m} must be at least 1"),
                );
            }
        }
        if let Some(j) = &r.jitter {
            if j.as_f64().is_some_and(|j| !(0.0..=1.0).contains(&j)) {
                self.push(&pointer_push(&rb, "jitter"), format!("retry jitter {j} must be between 0 and 1"));
            }
        }
        self.classes(&rb, "retryable_error_classes", "retry", &r.retryable_error_classes);
        self.classes(&rb, "non_retryable_error_classes", "retry", &r.non_retryable_error_classes);
    }
}

/// Checks a node's `policy` (`base` is `/nodes/<i>/policy`).
pub fn check_node(node_id: &str, base: &str, p: &ExecutionPolicy, out: &mut Vec<Diagnostic>) {
    let mut c = Check {
        out,
        prefix: format!("node \"{node_id}\" execution policy: "),
        node: Some(node_id.to_owned()),
    };
    c.execution(base, p);
}

/// Checks the graph `policy` (limits and node defaults).
pub fn check_graph(p: &GraphPolicy, out: &mut Vec<Diagnostic>) {
    let mut c = Check { out, prefix: "graph policy: ".into(), node: None };
    if let Some(l) = &p.limits {
        check_limits(&mut c, l);
    }
    if let Some(d) = &p.node_defaults {
        c.prefix = "graph policy node_defaults: ".into();
        c.execution("/policy/node_defaults", d);
    }
}

fn check_limits(c: &mut Check, l: &Limits) {
    let base = "/policy/limits";
    let counts = [
        ("max_super_steps", &l.max_super_steps),
        ("max_node_executions", &l.max_node_executions),
        ("max_fan_out", &l.max_fan_out),
        ("max_concurrent_runs", &l.max_concurrent_runs),
        ("max_concurrent_nodes", &l.max_concurrent_nodes),
        ("max_concurrent_tools", &l.max_concurrent_tools),
        ("max_state_bytes", &l.max_state_bytes),
    ];
    for (key, v) in counts {
        c.count(base, key, key, v.as_ref());
    }
    c.duration(base, "max_wall_time", "max_wall_time", &l.max_wall_time);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_durations() {
        assert_eq!(parse_go_duration("90m"), Ok(90 * 60 * 1_000_000_000));
        assert_eq!(parse_go_duration("1h30m"), Ok(90 * 60 * 1_000_000_000));
        assert_eq!(parse_go_duration("250ms"), Ok(250_000_000));
        assert_eq!(parse_go_duration("1.5s"), Ok(1_500_000_000));
        assert_eq!(parse_go_duration("-2s"), Ok(-2_000_000_000));
        assert_eq!(parse_go_duration("0"), Ok(0));
        assert_eq!(parse_go_duration("3µs"), Ok(3_000));
        assert_eq!(parse_go_duration("90"), Err("time: missing unit in duration \"90\"".into()));
        assert_eq!(parse_go_duration("5d"), Err("time: unknown unit \"d\" in duration \"5d\"".into()));
        assert!(parse_go_duration("").is_err());
        assert!(parse_go_duration("m").is_err());
        assert!(parse_go_duration("1..2s").is_err());
        assert!(parse_go_duration("99999999999h").is_err());
    }
}
