//! The state of every channel after any step. Where the source records the whole state (Ilmek's
//! `state` event after a superstep, a checkpoint's channels) that is the state; in between, and
//! where a source records only changes, the state is rebuilt: the input folded into the
//! channels, then each step's writes folded by the graph's reducers and its path changes set.
//!
//! A run of 100,000 steps keeps the rebuilt state every [`EVERY`] steps, so the state after any
//! step is at most that many folds away: moving through the run never replays it from the top.

use serde::Serialize;
use serde_json::{Map, Value};
use ts_rs::TS;

use crate::graph::Reducers;
use crate::model::{Run, Step};

/// How many steps apart the rebuilt states are kept.
pub const EVERY: usize = 256;

/// The channels after a step.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct StateAfter {
    /// Every channel written so far, by name (a path for sources that change paths).
    #[ts(type = "Record<string, unknown>")]
    pub channels: Map<String, Value>,
    /// The channels this step wrote or changed.
    pub changed: Vec<String>,
    /// Whether the source recorded this state (else it was rebuilt from the changes).
    pub recorded: bool,
}

/// Folds one step into `state`; whether the step carried a recorded state.
pub fn apply(state: &mut Map<String, Value>, step: &Step, reducers: &Reducers) -> bool {
    if let Some(update) = &step.update {
        reducers.fold(state, update);
    }
    for c in &step.changes {
        match &c.after {
            Some(v) => {
                state.insert(c.path.clone(), v.clone());
            }
            None => {
                state.shift_remove(&c.path);
            }
        }
    }
    match &step.state {
        Some(recorded) => {
            state.clone_from(recorded);
            true
        }
        None => false,
    }
}

/// The channels a step wrote or changed, in its order.
pub fn changed(step: &Step) -> Vec<String> {
    let mut out: Vec<String> = step.update.iter().flat_map(|u| u.keys().cloned()).collect();
    for c in &step.changes {
        if !out.contains(&c.path) {
            out.push(c.path.clone());
        }
    }
    out
}

/// The kept states of a run, to answer "the state after step i" quickly.
#[derive(Debug, Clone, Default)]
pub struct StateIndex {
    /// The state after steps EVERY-1, 2*EVERY-1, ...
    kept: Vec<Map<String, Value>>,
}

impl StateIndex {
    /// Folds the whole run once, keeping a state every [`EVERY`] steps.
    pub fn build(run: &Run, reducers: &Reducers) -> StateIndex {
        let mut state = Map::new();
        let mut kept = Vec::with_capacity(run.steps.len() / EVERY);
        for (i, step) in run.steps.iter().enumerate() {
            apply(&mut state, step, reducers);
            if (i + 1) % EVERY == 0 {
                kept.push(state.clone());
            }
        }
        StateIndex { kept }
    }

    /// The state after step `index` (clamped to the last step).
    pub fn after(&self, run: &Run, reducers: &Reducers, index: usize) -> StateAfter {
        let Some(last) = run.steps.len().checked_sub(1) else {
            return StateAfter { channels: Map::new(), changed: Vec::new(), recorded: false };
        };
        let index = index.min(last);
        let block = (index + 1) / EVERY;
        let (mut state, from) = match block.checked_sub(1).and_then(|b| self.kept.get(b)) {
            Some(s) => (s.clone(), block * EVERY),
            None => (Map::new(), 0),
        };
        let mut recorded = false;
        for step in &run.steps[from..=index] {
            recorded = apply(&mut state, step, reducers);
        }
        StateAfter { channels: state, changed: changed(&run.steps[index]), recorded }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{RunSource, StepKind};
    use serde_json::json;

    fn spec_with_append() -> Reducers {
        let spec = trellis_spec::parse_spec(
            r#"{"name":"g","channels":{"log":{"reducer":"append"},"n":{"reducer":"last_write"}},"nodes":[],"edges":[]}"#,
        )
        .spec
        .expect("spec");
        Reducers::from_spec(&spec)
    }

    #[test]
    fn every_step_matches_a_fold_from_the_top() {
        let reducers = spec_with_append();
        let mut run = Run::new(RunSource::IlmekEvents, "r");
        for i in 0..(EVERY * 2 + 7) {
            let mut s = Step::node(format!("t{i}"), "a");
            s.update = Some(json!({"log": i, "n": i}).as_object().cloned().unwrap_or_default());
            if i == EVERY + 3 {
                s.state = Some(json!({"log": ["reset"], "n": -1}).as_object().cloned().unwrap_or_default());
            }
            run.steps.push(s);
        }
        run.steps.push(Step::new("x", "model", StepKind::Llm));
        let index = StateIndex::build(&run, &reducers);
        let mut state = Map::new();
        for (i, step) in run.steps.iter().enumerate() {
            let recorded = apply(&mut state, step, &reducers);
            let got = index.after(&run, &reducers, i);
            assert_eq!(got.channels, state, "step {i}");
            assert_eq!(got.recorded, recorded);
        }
        assert_eq!(index.after(&run, &reducers, EVERY + 3).channels["log"], json!(["reset"]));
        assert_eq!(index.after(&run, &reducers, EVERY + 4).channels["log"], json!(["reset", EVERY + 4]));
    }
}
