//! What the UI gets of a run (trellis-runs' model against the open document): the overlay, the
//! step table for the timeline, and the figures, sent once when a run is opened; then one small
//! answer per step the user moves to ([`StepDetail`]). The UI never computes the path or the
//! state; it moves through what Rust sent.

use indexmap::IndexMap;
use serde::Serialize;
use serde_json::{Map, Value};
use trellis_doc::Position;
use trellis_runs::compare::RunComparison;
use trellis_runs::graph::GraphShape;
use trellis_runs::identity::{GraphMatch, Verdict};
use trellis_runs::model::ReadRun;
use trellis_runs::model::{
    Cost, GraphIdentity, Interrupt, RawEvent, Run, RunOutcome, RunSource, StateChange, StepError, StepKind,
    StepStatus, Tokens,
};
use trellis_runs::overlay::{EdgeEnds, PathOverlay};
use trellis_runs::state::StateAfter;
use trellis_runs::summary::{Aggregate, RunSummary};
use trellis_runs::{identity, overlay, summary};
use trellis_spec::Diagnostic;
use ts_rs::TS;

/// A node the run visited that the document lacks, and where it is drawn.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct RunGhost {
    pub id: String,
    pub position: Position,
}

/// Every step of the run in columns (a run of 100,000 steps crosses as a few arrays).
#[derive(Debug, Clone, Default, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct StepTable {
    /// The distinct step names (node ids, span and run names).
    pub labels: Vec<String>,
    /// Per step: its name, as an index into `labels`.
    pub label: Vec<u32>,
    /// Per step: its superstep, -1 when the record has none.
    #[ts(type = "number[]")]
    pub superstep: Vec<i64>,
    /// Per step, one letter: i(nput), n(ode), l(lm), t(ool), a(gent), o(ther).
    pub kinds: String,
    /// Per step, one letter: o(k), e(rror), r(etried), i(nterrupted), u (running), c(ancelled).
    pub statuses: String,
    pub attempt: Vec<u32>,
    /// Per step: the step it ran under, -1 for none.
    pub parent: Vec<i32>,
    /// Per step: milliseconds from the run's start to the step's, -1 when unknown.
    pub start_ms: Vec<f64>,
    /// Per step: how long it took, -1 when unknown.
    pub duration_ms: Vec<f64>,
}

fn kind_letter(k: StepKind) -> char {
    match k {
        StepKind::Input => 'i',
        StepKind::Node => 'n',
        StepKind::Llm => 'l',
        StepKind::Tool => 't',
        StepKind::Agent => 'a',
        StepKind::Other => 'o',
    }
}

fn status_letter(s: StepStatus) -> char {
    match s {
        StepStatus::Ok => 'o',
        StepStatus::Error => 'e',
        StepStatus::Retried => 'r',
        StepStatus::Interrupted => 'i',
        StepStatus::Running => 'u',
        StepStatus::Cancelled => 'c',
    }
}

/// The run's steps as columns.
pub fn step_table(run: &Run) -> StepTable {
    let n = run.steps.len();
    let mut t = StepTable {
        label: Vec::with_capacity(n),
        superstep: Vec::with_capacity(n),
        kinds: String::with_capacity(n),
        statuses: String::with_capacity(n),
        attempt: Vec::with_capacity(n),
        parent: Vec::with_capacity(n),
        start_ms: Vec::with_capacity(n),
        duration_ms: Vec::with_capacity(n),
        labels: Vec::new(),
    };
    let mut labels: IndexMap<&str, u32> = IndexMap::new();
    let origin = run.started_ms.or_else(|| run.steps.iter().filter_map(|s| s.started_ms).reduce(f64::min));
    for s in &run.steps {
        let name = s.node.as_deref().unwrap_or(&s.name);
        let next = labels.len() as u32;
        t.label.push(*labels.entry(name).or_insert(next));
        t.superstep.push(s.superstep.map_or(-1, |x| x as i64));
        t.kinds.push(kind_letter(s.kind));
        t.statuses.push(status_letter(s.status));
        t.attempt.push(s.attempt);
        t.parent.push(s.parent.map_or(-1, |p| p as i32));
        t.start_ms.push(match (s.started_ms, origin) {
            (Some(a), Some(o)) => (a - o).max(0.0),
            _ => -1.0,
        });
        t.duration_ms.push(s.duration_ms().unwrap_or(-1.0));
    }
    t.labels = labels.into_keys().map(str::to_owned).collect();
    t
}

/// A run on the canvas.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct RunView {
    /// What the run is called in the app (its file name, "Simulation").
    pub title: String,
    pub source: RunSource,
    pub source_label: String,
    pub id: String,
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thread: Option<String>,
    pub status: RunOutcome,
    pub graph: GraphIdentity,
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub started_ms: Option<f64>,
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<f64>,
    /// Whether the run ran this document, and how it differs.
    pub matched: GraphMatch,
    pub overlay: PathOverlay,
    pub ghosts: Vec<RunGhost>,
    pub steps: StepTable,
    pub summary: RunSummary,
    /// What reading the record noticed, and what the app says about the graph.
    pub notices: Vec<Diagnostic>,
    /// The other runs in the same record.
    pub others: Vec<String>,
    /// A simulation (it can be saved as a run log).
    pub simulated: bool,
}

/// The view of a run read from a record, on a document of shape `shape` whose nodes are at
/// `positions` and whose text and file hash to `hashes`.
pub fn build(
    title: &str,
    read: &ReadRun,
    shape: &GraphShape,
    positions: &IndexMap<String, Position>,
    hashes: &[String],
    simulated: bool,
) -> RunView {
    let run = &read.run;
    let matched = identity::judge(run, shape, hashes);
    let overlay = overlay::path(run, shape);
    let ghosts = ghost_places(&overlay, positions);
    let mut notices = read.diagnostics.clone();
    notices.extend(graph_notice(&matched));
    RunView {
        title: title.to_owned(),
        source: run.source,
        source_label: run.source.label().to_owned(),
        id: run.id.clone(),
        thread: run.thread.clone(),
        status: run.status,
        graph: run.graph.clone(),
        started_ms: run.started_ms,
        duration_ms: run.duration_ms(),
        matched,
        overlay,
        ghosts,
        steps: step_table(run),
        summary: summary::summarize(run),
        notices,
        others: read.others.clone(),
        simulated,
    }
}

/// The notice about the graph the run ran, when there is something to say.
pub fn graph_notice(m: &GraphMatch) -> Option<Diagnostic> {
    match m.verdict {
        Verdict::Same | Verdict::NodesMatch => None,
        Verdict::OtherVersion => {
            Some(Diagnostic::warning(trellis_runs::codes::OTHER_GRAPH, m.message.clone()))
        }
        Verdict::Unmatched => Some(Diagnostic::warning(trellis_runs::codes::UNMATCHED, m.message.clone())),
    }
}

/// Places for the nodes the run visited that the document lacks: below the node the run came
/// from (side by side when several came from one), else in a column right of the graph.
pub fn ghost_places(overlay: &PathOverlay, positions: &IndexMap<String, Position>) -> Vec<RunGhost> {
    let mut placed: IndexMap<String, Position> = IndexMap::new();
    let mut per_anchor: IndexMap<String, u32> = IndexMap::new();
    let right = positions.values().map(|p| p.x).fold(f64::NEG_INFINITY, f64::max);
    let top = positions.values().map(|p| p.y).fold(f64::INFINITY, f64::min);
    let (col_x, mut col_y) = if right.is_finite() { (right + 320.0, top) } else { (0.0, 0.0) };
    for g in overlay.nodes.iter().filter(|n| n.ghost) {
        let anchor = overlay.edges.iter().filter(|e| e.to == g.id).find_map(|e| {
            positions.get(&e.from).or_else(|| placed.get(&e.from)).map(|p| (e.from.clone(), *p))
        });
        let position = match anchor {
            Some((from, p)) => {
                let k = per_anchor.entry(from).or_insert(0);
                *k += 1;
                Position { x: p.x + 240.0 * f64::from(*k - 1), y: p.y + 130.0 }
            }
            None => {
                let p = Position { x: col_x, y: col_y };
                col_y += 120.0;
                p
            }
        };
        placed.insert(g.id.clone(), position);
    }
    placed.into_iter().map(|(id, position)| RunGhost { id, position }).collect()
}

/// One step in full, with every channel after it (what the inspector shows).
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct StepDetail {
    pub index: u32,
    pub id: String,
    pub name: String,
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node: Option<String>,
    pub kind: StepKind,
    pub status: StepStatus,
    pub attempt: u32,
    #[ts(optional, type = "number")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub superstep: Option<u64>,
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub started_ms: Option<f64>,
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ended_ms: Option<f64>,
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<f64>,
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    #[ts(optional, type = "unknown")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<Value>,
    #[ts(optional, type = "unknown")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<Value>,
    #[ts(optional, type = "Record<string, unknown>")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub update: Option<Map<String, Value>>,
    pub changes: Vec<StateChange>,
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens: Option<Tokens>,
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<Cost>,
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<StepError>,
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interrupt: Option<Interrupt>,
    pub events: Vec<RawEvent>,
    /// The edges it came in by.
    pub incoming: Vec<EdgeEnds>,
    pub state: StateAfter,
}

/// The detail of step `index` of `run`.
pub fn step_detail(run: &Run, overlay: &PathOverlay, index: usize, state: StateAfter) -> StepDetail {
    let s = &run.steps[index];
    let incoming = overlay
        .incoming
        .get(index)
        .map(|es| {
            es.iter()
                .filter_map(|&e| overlay.edges.get(e as usize))
                .map(|e| EdgeEnds { from: e.from.clone(), to: e.to.clone() })
                .collect()
        })
        .unwrap_or_default();
    StepDetail {
        index: index as u32,
        id: s.id.clone(),
        name: s.name.clone(),
        node: s.node.clone(),
        kind: s.kind,
        status: s.status,
        attempt: s.attempt,
        superstep: s.superstep,
        started_ms: s.started_ms,
        ended_ms: s.ended_ms,
        duration_ms: s.duration_ms(),
        parent: s.parent.and_then(|p| run.steps.get(p)).map(|p| p.node.clone().unwrap_or(p.name.clone())),
        input: s.input.clone(),
        output: s.output.clone(),
        update: s.update.clone(),
        changes: s.changes.clone(),
        tokens: s.tokens,
        cost: s.cost.clone(),
        error: s.error.clone(),
        interrupt: s.interrupt.clone(),
        events: s.events.iter().take(200).cloned().collect(),
        incoming,
        state,
    }
}

/// A second run beside the first: its own view (drawn in the second colour) and the comparison.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct RunCompareView {
    pub other: RunView,
    pub comparison: RunComparison,
    pub notices: Vec<Diagnostic>,
}

/// A record of a folder that was not read, and why.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct UnreadRecord {
    pub file: String,
    pub message: String,
}

/// A folder of runs as a heat map.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct RunFolderView {
    pub title: String,
    pub aggregate: Aggregate,
    pub unread: Vec<UnreadRecord>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use trellis_runs::state::StateIndex;

    /// The run view and step details the UI's Vitest tests run against
    /// (`ui/src/test/fixtures/run-view.json`): the run log fixture of trellis-runs on its
    /// support graph, as `run_view` and `run_step` answer them. `npm test` reruns this and fails
    /// when the committed file is stale.
    #[test]
    fn export_fixtures_run_view() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let fixtures = root.join("crates/runs/tests/fixtures");
        let graph = std::fs::read_to_string(fixtures.join("support.json")).expect("support.json");
        let shape = GraphShape::from_spec(&trellis_spec::parse_spec(&graph).spec.expect("a GraphSpec"));
        let read = trellis_runs::file::open(&fixtures.join("trellis-log.jsonl"), &Default::default())
            .expect("reads");
        let mut positions = IndexMap::new();
        for (i, id) in ["__start__", "agent", "checkout", "answer", "__end__"].iter().enumerate() {
            positions.insert((*id).to_owned(), Position { x: 260.0 * i as f64, y: 100.0 });
        }
        let view = build("trellis-log.jsonl", &read, &shape, &positions, &[], false);
        assert_eq!(view.steps.kinds, "innn", "input, agent twice (a retry), checkout");
        let index = StateIndex::build(&read.run, &shape.reducers);
        let details: Vec<StepDetail> = (0..read.run.steps.len())
            .map(|i| step_detail(&read.run, &view.overlay, i, index.after(&read.run, &shape.reducers, i)))
            .collect();
        let text = serde_json::to_string_pretty(&serde_json::json!({"view": view, "details": details}))
            .expect("JSON");
        let out = root.join("ui/src/test/fixtures/run-view.json");
        std::fs::write(&out, text + "\n").expect("write the fixture");
    }
}
