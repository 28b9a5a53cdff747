//! The user's price table: USD per million tokens for each `model_key`, read from JSON with
//! every problem named by its place.

use super::codes;
use indexmap::IndexMap;
use serde::Serialize;
use serde_json::Value;
use trellis_spec::Diagnostic;

/// USD per million tokens for one model.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, ts_rs::TS)]
#[ts(export, rename = "GraphMdPrice")]
pub struct Price {
    pub input_per_mtok: f64,
    pub output_per_mtok: f64,
}

/// `model_key` -> price. Read from the user's JSON file with [`PriceTable::parse`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, ts_rs::TS)]
#[ts(export, rename = "GraphMdPriceTable")]
pub struct PriceTable {
    pub models: IndexMap<String, Price>,
}

impl PriceTable {
    /// Parses `{"models": {"openai:gpt-5-mini": {"input_per_mtok": 0.25, "output_per_mtok": 2.0}}}`.
    pub fn parse(text: &str) -> Result<PriceTable, Vec<Diagnostic>> {
        let v = trellis_spec::json::parse(text).map_err(|mut d| {
            d.code = codes::BAD_PRICE_TABLE.to_owned();
            vec![d]
        })?;
        let mut errs = Vec::new();
        let mut models = IndexMap::new();
        let bad = |msg: String, ptr: &str| Diagnostic::error(codes::BAD_PRICE_TABLE, msg).at(ptr);
        match v.as_object().and_then(|o| o.get("models")).and_then(Value::as_object) {
            None => errs.push(bad("a price table is an object with `models`: {\"<model_key>\": {\"input_per_mtok\": N, \"output_per_mtok\": N}}".into(), "")),
            Some(m) => {
                if let Some(o) = v.as_object() {
                    for k in o.keys().filter(|k| *k != "models" && *k != "currency" && *k != "$comment") {
                        errs.push(bad(format!("unknown key `{k}` in the price table"), &trellis_spec::diagnostic::pointer([k])));
                    }
                    if let Some(c) = o.get("currency") {
                        if c.as_str() != Some("USD") {
                            errs.push(bad("`currency` must be \"USD\" (budgets are in cost_usd)".into(), "/currency"));
                        }
                    }
                }
                for (key, p) in m {
                    let ptr = trellis_spec::diagnostic::pointer(["models", key]);
                    let get = |f: &str| p.get(f).and_then(Value::as_f64).filter(|x| x.is_finite() && *x >= 0.0);
                    match (get("input_per_mtok"), get("output_per_mtok")) {
                        (Some(i), Some(o)) => {
                            models.insert(key.clone(), Price { input_per_mtok: i, output_per_mtok: o });
                        }
                        _ => errs.push(bad(format!("model `{key}` needs `input_per_mtok` and `output_per_mtok` (USD per million tokens, 0 or more)"), &ptr)),
                    }
                }
            }
        }
        if errs.is_empty() {
            Ok(PriceTable { models })
        } else {
            trellis_spec::json::fill_spans(text, &mut errs);
            Err(errs)
        }
    }
}
