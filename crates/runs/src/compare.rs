//! Two runs side by side: their steps aligned on (superstep, node, attempt) in order, the
//! first step where they part, the first channel value that differs after steps both took, and
//! the edges each took alone (drawn in two colours).

use serde::Serialize;
use serde_json::{Map, Value};
use similar::{capture_diff_slices, Algorithm, DiffOp};
use ts_rs::TS;

use crate::graph::{GraphShape, Reducers};
use crate::model::Run;
use crate::overlay::{self, EdgeEnds};
use crate::state;

/// One row of the alignment: a step of A, of B, or of both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[ts(export)]
pub struct Aligned {
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub a: Option<u32>,
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub b: Option<u32>,
}

/// Where the runs part: the first row that is not on both sides.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct Divergence {
    /// The row in `rows`.
    pub row: u32,
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub a: Option<u32>,
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub b: Option<u32>,
    pub message: String,
}

/// The first channel whose value differs after a step both runs took.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct ValueDifference {
    pub row: u32,
    pub a_step: u32,
    pub b_step: u32,
    pub channel: String,
    #[ts(optional, type = "unknown")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub a: Option<Value>,
    #[ts(optional, type = "unknown")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub b: Option<Value>,
    pub message: String,
}

/// Two runs compared.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct RunComparison {
    pub rows: Vec<Aligned>,
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub divergence: Option<Divergence>,
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<ValueDifference>,
    /// Edges both took, A alone, B alone.
    pub both: Vec<EdgeEnds>,
    pub only_a: Vec<EdgeEnds>,
    pub only_b: Vec<EdgeEnds>,
}

/// What steps are aligned on: superstep, node, attempt.
type StepKey = (Option<u64>, String, u32);

/// A step's key for alignment; steps off the path do not take part.
fn keys(run: &Run) -> (Vec<StepKey>, Vec<usize>) {
    let mut keys = Vec::new();
    let mut index = Vec::new();
    for (i, s) in run.steps.iter().enumerate().filter(|(_, s)| s.on_path()) {
        keys.push((s.superstep, s.node.clone().unwrap_or_default(), s.attempt));
        index.push(i);
    }
    (keys, index)
}

fn describe(run: &Run, i: usize) -> String {
    let s = &run.steps[i];
    let node = s.node.as_deref().unwrap_or(&s.name);
    let at = s.superstep.map(|n| format!(" in superstep {n}")).unwrap_or_default();
    let attempt = if s.attempt > 1 { format!(" (attempt {})", s.attempt) } else { String::new() };
    format!("{node}{at}{attempt}")
}

/// Compares `a` with `b` (`graph` for the edges and the reducers; a default shape without one).
pub fn compare(a: &Run, b: &Run, graph: &GraphShape) -> RunComparison {
    let (ka, ia) = keys(a);
    let (kb, ib) = keys(b);
    let ops = capture_diff_slices(Algorithm::Myers, &ka, &kb);
    let mut rows = Vec::with_capacity(ka.len().max(kb.len()));
    for op in &ops {
        match *op {
            DiffOp::Equal { old_index, new_index, len } => {
                for k in 0..len {
                    rows.push(Aligned {
                        a: Some(ia[old_index + k] as u32),
                        b: Some(ib[new_index + k] as u32),
                    });
                }
            }
            DiffOp::Delete { old_index, old_len, .. } => {
                rows.extend((0..old_len).map(|k| Aligned { a: Some(ia[old_index + k] as u32), b: None }));
            }
            DiffOp::Insert { new_index, new_len, .. } => {
                rows.extend((0..new_len).map(|k| Aligned { a: None, b: Some(ib[new_index + k] as u32) }));
            }
            DiffOp::Replace { old_index, old_len, new_index, new_len } => {
                for k in 0..old_len.max(new_len) {
                    rows.push(Aligned {
                        a: (k < old_len).then(|| ia[old_index + k] as u32),
                        b: (k < new_len).then(|| ib[new_index + k] as u32),
                    });
                }
            }
        }
    }
    let divergence = rows.iter().enumerate().find(|(_, r)| {
        r.a.is_none() || r.b.is_none() || {
            let (x, y) = (r.a.unwrap_or(0) as usize, r.b.unwrap_or(0) as usize);
            a.steps[x].node != b.steps[y].node || a.steps[x].superstep != b.steps[y].superstep
        }
    });
    let divergence = divergence.map(|(row, r)| {
        let message = match (r.a, r.b) {
            (Some(x), Some(y)) => format!(
                "The runs part at step {}: A ran {}, B ran {}.",
                row + 1,
                describe(a, x as usize),
                describe(b, y as usize)
            ),
            (Some(x), None) => format!(
                "The runs part at step {}: A ran {}, which B did not.",
                row + 1,
                describe(a, x as usize)
            ),
            (None, Some(y)) => format!(
                "The runs part at step {}: B ran {}, which A did not.",
                row + 1,
                describe(b, y as usize)
            ),
            (None, None) => String::new(),
        };
        Divergence { row: row as u32, a: r.a, b: r.b, message }
    });
    let value = first_value_difference(a, b, &rows, &graph.reducers);
    let pa = overlay::path(a, graph);
    let pb = overlay::path(b, graph);
    let ends = |e: &overlay::EdgeTraversal| EdgeEnds { from: e.from.clone(), to: e.to.clone() };
    let in_b = |e: &overlay::EdgeTraversal| pb.edges.iter().any(|x| x.from == e.from && x.to == e.to);
    let in_a = |e: &overlay::EdgeTraversal| pa.edges.iter().any(|x| x.from == e.from && x.to == e.to);
    RunComparison {
        both: pa.edges.iter().filter(|e| in_b(e)).map(ends).collect(),
        only_a: pa.edges.iter().filter(|e| !in_b(e)).map(ends).collect(),
        only_b: pb.edges.iter().filter(|e| !in_a(e)).map(ends).collect(),
        rows,
        divergence,
        value,
    }
}

/// Walks both runs' states along the rows; the first row after which a channel differs.
fn first_value_difference(
    a: &Run,
    b: &Run,
    rows: &[Aligned],
    reducers: &Reducers,
) -> Option<ValueDifference> {
    let (mut sa, mut sb) = (Map::new(), Map::new());
    let (mut na, mut nb) = (0usize, 0usize);
    for (row, r) in rows.iter().enumerate() {
        // Fold every step up to this row's (sub-steps and all) on each side.
        if let Some(x) = r.a {
            while na <= x as usize {
                state::apply(&mut sa, &a.steps[na], reducers);
                na += 1;
            }
        }
        if let Some(y) = r.b {
            while nb <= y as usize {
                state::apply(&mut sb, &b.steps[nb], reducers);
                nb += 1;
            }
        }
        let (Some(x), Some(y)) = (r.a, r.b) else { return None };
        let mut names = sa.keys().chain(sb.keys().filter(|k| !sa.contains_key(*k)));
        if let Some(channel) = names.find(|k| sa.get(*k) != sb.get(*k)).cloned() {
            let (va, vb) = (sa.get(&channel).cloned(), sb.get(&channel).cloned());
            let text = |v: &Option<Value>| v.as_ref().map_or("nothing".to_owned(), crate::fields::compact);
            let message = format!(
                "After {} the channel \"{channel}\" differs: A has {}, B has {}.",
                describe(a, x as usize),
                clip(&text(&va)),
                clip(&text(&vb))
            );
            return Some(ValueDifference {
                row: row as u32,
                a_step: x,
                b_step: y,
                channel,
                a: va,
                b: vb,
                message,
            });
        }
    }
    None
}

fn clip(s: &str) -> String {
    if s.chars().count() > 80 {
        format!("{}…", s.chars().take(79).collect::<String>())
    } else {
        s.to_owned()
    }
}
