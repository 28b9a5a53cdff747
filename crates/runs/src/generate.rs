//! Large synthetic runs for the benchmarks and the app's measurements: a graph of `nodes` nodes
//! in a ring (each node leads to the next, and by a guard that never holds to the one after,
//! a branch never taken), and a run log of `steps` steps walking the ring, as Ilmek's events
//! with times: one node a superstep, its update, the state after it.

use serde_json::{json, Value};

use crate::log::{self, LogHeader};

/// The node ids of the generated graph.
pub fn node_id(i: usize) -> String {
    format!("n{i}")
}

/// The graph: a GraphSpec document's text.
pub fn graph(nodes: usize) -> String {
    let nodes = nodes.max(2);
    let mut ns = Vec::with_capacity(nodes);
    let mut es = Vec::with_capacity(nodes * 2 + 1);
    es.push(json!({"from": "__start__", "to": node_id(0)}));
    for i in 0..nodes {
        ns.push(json!({"id": node_id(i), "type": "llm"}));
        es.push(json!({"from": node_id(i), "to": node_id((i + 1) % nodes)}));
        es.push(json!({"from": node_id(i), "to": node_id((i + 2) % nodes), "when": {"channel": "skip", "truthy": true}}));
    }
    es.push(
        json!({"from": node_id(nodes - 1), "to": "__end__", "when": {"channel": "done", "truthy": true}}),
    );
    let spec = json!({
        "name": format!("ring-{nodes}"),
        "channels": {"at": {"reducer": "last_write"}, "count": {"reducer": "last_write"}, "skip": {}, "done": {}, "notes": {"reducer": "append"}},
        "nodes": ns,
        "edges": es,
    });
    serde_json::to_string_pretty(&spec).unwrap_or_default()
}

/// A run log of `steps` steps on [`graph`]`(nodes)`; `seed` varies its times and ids.
pub fn run_log(nodes: usize, steps: usize, seed: u64) -> String {
    let nodes = nodes.max(2);
    let run = format!("run-{seed}");
    let thread = format!("t-{seed}");
    let header = LogHeader {
        graph_name: Some(format!("ring-{nodes}")),
        graph_hash: Some(crate::identity::graph_hash(graph(nodes).as_bytes())),
        graph_spec: None,
        runtime: Some("trellis-runs generate".into()),
        run_id: Some(run.clone()),
        input: Some(json!({"count": 0}).as_object().cloned().unwrap_or_default()),
        captured_ms: Some(1_785_000_000_000.0),
    };
    let mut text = String::with_capacity(steps * 600);
    text.push_str(&log::header_line(&header));
    let mut seq = 0u64;
    let mut at = 1_785_000_000_000.0 + seed as f64;
    let mut event = |text: &mut String, kind: &str, at: f64, fields: Value| {
        seq += 1;
        let mut e = json!({"type": kind, "runId": run, "threadId": thread, "seq": seq, "ns": []});
        if let (Some(e), Value::Object(f)) = (e.as_object_mut(), fields) {
            e.extend(f);
        }
        text.push_str(&log::event_line(at, &e));
    };
    event(&mut text, "run_start", at, json!({}));
    let mut notes = 0u64;
    for s in 0..steps {
        let node = node_id(s % nodes);
        event(&mut text, "step_start", at, json!({"step": s, "tasks": [node]}));
        event(&mut text, "node_start", at, json!({"node": node, "taskId": format!("{thread}:s{s}:{node}")}));
        // Durations vary by node and seed, so medians and percentiles mean something.
        at += 5.0 + ((s as u64 * 7 + seed * 13) % 40) as f64;
        let mut update = json!({"at": node, "count": s + 1});
        if s % 1000 == 999 {
            notes += 1;
            update["notes"] = json!(format!("lap note {notes}"));
        }
        event(&mut text, "node_end", at, json!({"node": node, "update": update}));
        if s % 1000 == 999 || s + 1 == steps {
            let notes: Vec<String> = (1..=notes).map(|k| format!("lap note {k}")).collect();
            event(&mut text, "state", at, json!({"channels": {"at": node, "count": s + 1, "notes": notes}}));
        }
        at += 1.0;
    }
    event(&mut text, "run_end", at, json!({"status": "done", "state": {"count": steps}}));
    text
}
