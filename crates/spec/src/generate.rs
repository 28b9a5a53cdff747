//! A deterministic generator of large, valid GraphSpec documents, for benchmarks, tests and the
//! app's performance checks. The same `(nodes, seed)` always gives the same document.
//!
//! Shape (as the benchmark brief asks): about two edges per node, a third of them guarded by a
//! predicate (every operator in turn), configs of about 150 bytes, five channels with every
//! reducer, one entry edge, edges only forward (so no endless cycle), every node reachable.

use indexmap::IndexMap;
use serde_json::{Map, Number, Value};

use crate::model::{ChannelSpec, EdgeSpec, GraphSpec, NodeSpec, Predicate, ReducerName, END, START};

/// splitmix64: tiny, fast, good enough for shapes.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
}

const TYPES: [&str; 5] = ["llm", "http", "tool", "classify", "say"];
const MODELS: [&str; 3] = ["claude-opus-4-8", "gpt-5.1-mini", "llama-4-scout"];
const WORDS: [&str; 8] = ["summarize", "classify", "route", "fetch", "answer", "review", "draft", "check"];

fn num(text: &str) -> Value {
    serde_json::from_str::<Number>(text).map(Value::Number).unwrap_or(Value::Null)
}

fn config(rng: &mut Rng, i: usize) -> Map<String, Value> {
    let mut c = Map::new();
    c.insert("model".into(), Value::String(MODELS[rng.below(3) as usize].into()));
    c.insert("temperature".into(), num(&format!("0.{}", rng.below(10))));
    c.insert("max_tokens".into(), Value::Number((256 * (1 + rng.below(8))).into()));
    let w1 = WORDS[rng.below(8) as usize];
    let w2 = WORDS[rng.below(8) as usize];
    c.insert("prompt".into(), Value::String(format!("{w1} the request #{i}, then {w2} it politely")));
    c.insert("tools".into(), Value::Array(vec![Value::String("search".into()), Value::String(w2.into())]));
    c
}

fn predicate(rng: &mut Rng) -> Predicate {
    let mut m = Map::new();
    let (channel, op, value) = match rng.below(6) {
        0 => ("intent", "eq", Value::String(WORDS[rng.below(8) as usize].into())),
        1 => ("intent", "neq", Value::String(WORDS[rng.below(8) as usize].into())),
        2 => (
            "intent",
            "in",
            Value::Array(vec![
                Value::String(WORDS[rng.below(8) as usize].into()),
                Value::String(WORDS[rng.below(8) as usize].into()),
            ]),
        ),
        3 => ("count", "gt", Value::Number(rng.below(100).into())),
        4 => ("count", "lt", num(&format!("{}.5", rng.below(100)))),
        _ => ("items", "truthy", Value::Bool(rng.below(2) == 0)),
    };
    m.insert("channel".into(), Value::String(channel.into()));
    m.insert(op.into(), value);
    Predicate::from(m)
}

/// A valid document with `nodes` nodes.
pub fn generate(nodes: usize, seed: u64) -> GraphSpec {
    let mut rng = Rng::new(seed);
    let mut channels = IndexMap::new();
    for (name, reducer) in [
        ("messages", ReducerName::Append),
        ("intent", ReducerName::LastWrite),
        ("count", ReducerName::LastWrite),
        ("items", ReducerName::Append),
        ("flags", ReducerName::Merge),
    ] {
        channels.insert(name.to_owned(), ChannelSpec { reducer });
    }
    let ids: Vec<String> = (0..nodes).map(|i| format!("n{i}")).collect();
    let mut spec_nodes = Vec::with_capacity(nodes);
    for (i, id) in ids.iter().enumerate() {
        let type_name = TYPES[rng.below(TYPES.len() as u64) as usize].to_owned();
        spec_nodes.push(NodeSpec {
            id: id.clone().into(),
            type_name: Some(type_name.into()),
            config: config(&mut rng, i).into(),
        });
    }
    let mut edges = Vec::with_capacity(2 * nodes + 1);
    if let Some(first) = ids.first() {
        edges.push(EdgeSpec { from: START.into(), to: first.clone().into(), when: None });
    }
    for i in 0..nodes {
        // The chain keeps every node reachable; a guard on it only makes routing conditional.
        let next = ids.get(i + 1).cloned().unwrap_or_else(|| END.to_owned());
        let when = (i % 3 == 0).then(|| predicate(&mut rng));
        edges.push(EdgeSpec { from: ids[i].clone().into(), to: next.into(), when });
        // A skip forward (never a duplicate of the chain edge).
        let skip = i + 2 + rng.below(7) as usize;
        let to = ids.get(skip).cloned().unwrap_or_else(|| END.to_owned());
        if i + 1 >= nodes && to == END {
            continue; // would duplicate the chain's last edge
        }
        let when = (i % 3 == 1).then(|| predicate(&mut rng));
        edges.push(EdgeSpec { from: ids[i].clone().into(), to: to.into(), when });
    }
    GraphSpec { name: Some(format!("generated-{nodes}")), channels, nodes: spec_nodes, edges }
}

/// The canonical text of [`generate`].
pub fn generate_text(nodes: usize, seed: u64) -> String {
    crate::writer::to_canonical_string(&generate(nodes, seed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_documents_are_valid_deterministic_and_shaped() {
        let a = generate(300, 7);
        assert_eq!(a, generate(300, 7));
        assert_ne!(a, generate(300, 8));
        let diags = crate::validate::validate(&a, None);
        assert!(diags.is_empty(), "{diags:?}");
        let guarded = a.edges.iter().filter(|e| e.when.is_some()).count();
        let ratio = guarded as f64 / a.edges.len() as f64;
        assert!((0.28..0.40).contains(&ratio), "{ratio}");
        assert!((1.8..2.2).contains(&(a.edges.len() as f64 / 300.0)));
        let text = generate_text(1000, 1);
        let per_node = text.len() / 1000;
        assert!((250..700).contains(&per_node), "{per_node} bytes per node");
        let cfg = serde_json::to_string(&a.nodes[0].config).unwrap_or_default();
        assert!((100..220).contains(&cfg.len()), "{cfg}");
    }
}
