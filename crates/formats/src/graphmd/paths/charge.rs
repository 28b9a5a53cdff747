//! What one visit of a node costs (docs/graphmd.md "What a node is charged"): its tokens in
//! and out, its cost when a price is known, and its latency.

use super::price::PriceTable;
use crate::graphmd::topology::{Items, NodeInfo, Topology};
use serde::Serialize;

/// Tokens charged per judge question in the count form (overridable per node with
/// `estimates.tokens_per_question`).
pub const DEFAULT_TOKENS_PER_QUESTION: u64 = 30;
/// Tokens charged per judge option in the count form (`estimates.tokens_per_option`).
pub const DEFAULT_TOKENS_PER_OPTION: u64 = 10;

/// What one visit of a node costs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, ts_rs::TS)]
#[ts(export, rename = "GraphMdCharge")]
pub struct Charge {
    #[ts(type = "number")]
    pub input_tokens: u64,
    #[ts(type = "number")]
    pub output_tokens: u64,
    /// `None` when unknown (a model call with no price and no explicit `cost_usd`).
    pub cost_usd: Option<f64>,
    #[ts(type = "number")]
    pub latency_ms: u64,
}

impl Charge {
    pub fn tokens(&self) -> u64 {
        self.input_tokens.saturating_add(self.output_tokens)
    }
}

fn text_tokens(s: &str) -> u64 {
    (s.chars().count() as u64).div_ceil(4).max(1)
}

fn items_tokens(items: &Items, per: u64) -> u64 {
    match items {
        Items::Count(n) => n.saturating_mul(per),
        Items::List(l) => l.iter().map(|s| text_tokens(s)).sum(),
    }
}

/// The charge of one visit of `n` (docs/graphmd.md "What a node is charged").
pub fn charge(n: &NodeInfo, t: &Topology, prices: Option<&PriceTable>) -> Charge {
    let e = &n.estimates;
    let price = |model: Option<&str>, input: u64, output: u64| -> Option<f64> {
        if let Some(c) = e.cost_usd {
            return Some(c);
        }
        let Some(model) = model else { return Some(0.0) };
        let p = prices?.models.get(model)?;
        Some(input as f64 * p.input_per_mtok / 1e6 + output as f64 * p.output_per_mtok / 1e6)
    };
    if let Some(j) = &n.judge {
        let per_q = e.tokens_per_question.unwrap_or(DEFAULT_TOKENS_PER_QUESTION);
        let per_o = e.tokens_per_option.unwrap_or(DEFAULT_TOKENS_PER_OPTION);
        let input = j
            .state_tokens
            .saturating_add(items_tokens(&j.questions, per_q))
            .saturating_add(items_tokens(&j.options, per_o));
        let model = n.model_key.as_deref().or(Some(j.decision_model.as_str()));
        return Charge {
            input_tokens: input,
            output_tokens: 0,
            cost_usd: price(model, input, 0),
            latency_ms: e.latency_ms.unwrap_or(j.timeout_ms).min(j.timeout_ms),
        };
    }
    let reads: u64 = n.reads.iter().filter_map(|r| t.state.get(r)).sum();
    let input = e.input_tokens.unwrap_or(0).saturating_add(e.state_tokens.unwrap_or(0)).saturating_add(reads);
    let output = e.output_tokens.unwrap_or(0);
    Charge {
        input_tokens: input,
        output_tokens: output,
        cost_usd: price(n.model_key.as_deref(), input, output),
        latency_ms: e.latency_ms.unwrap_or(0),
    }
}
