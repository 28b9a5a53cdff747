//! A path as it is built: its steps in a list whose tails are shared, and its totals.

use super::charge::Charge;
use std::rc::Rc;

/// One step of a path.
#[derive(Debug, Clone, Copy)]
pub(super) enum Step {
    /// A visit of a topology node.
    Node(usize),
    /// A document edge taken.
    Edge(usize),
    /// The judge (topology node) left by its fallback route.
    Fallback(usize),
}

/// An immutable list of steps. Partial paths share their tails, so putting a node in front of
/// the paths that follow it costs O(1): a long chain is not copied quadratically.
#[derive(Debug)]
pub(super) struct StepCell {
    step: Step,
    next: List,
}

pub(super) type List = Option<Rc<StepCell>>;

impl Drop for StepCell {
    // Unlink iteratively: dropping a long list recursively would overflow the stack.
    fn drop(&mut self) {
        let mut next = self.next.take();
        while let Some(rc) = next {
            match Rc::try_unwrap(rc) {
                Ok(mut cell) => next = cell.next.take(),
                Err(_) => break,
            }
        }
    }
}

pub(super) fn prepend(items: &[Step], tail: List) -> List {
    items.iter().rev().fold(tail, |next, step| Some(Rc::new(StepCell { step: *step, next })))
}

pub(super) fn steps_of(list: &List) -> Vec<Step> {
    let mut out = Vec::new();
    let mut at = list.as_deref();
    while let Some(c) = at {
        out.push(c.step);
        at = c.next.as_deref();
    }
    out
}

/// A partial path: steps and totals.
#[derive(Debug, Clone, Default)]
pub(super) struct Partial {
    pub(super) steps: List,
    pub(super) tokens: u64,
    pub(super) cost: f64,
    pub(super) cost_known: bool,
    pub(super) latency: u64,
    pub(super) exit: Option<usize>,
}

impl Partial {
    pub(super) fn empty() -> Partial {
        Partial { cost_known: true, ..Partial::default() }
    }
    /// The visit of topology node `o`, charged `c`.
    pub(super) fn start(o: usize, c: Charge) -> Partial {
        Partial {
            steps: prepend(&[Step::Node(o)], None),
            tokens: c.tokens(),
            cost: c.cost_usd.unwrap_or(0.0),
            cost_known: c.cost_usd.is_some(),
            latency: c.latency_ms,
            exit: None,
        }
    }
    /// This partial path, then `extra` steps, then `rest` (whose steps are shared, not copied).
    pub(super) fn then_with(&self, extra: &[Step], rest: &Partial) -> Partial {
        let mut items = steps_of(&self.steps);
        items.extend_from_slice(extra);
        Partial {
            steps: prepend(&items, rest.steps.clone()),
            tokens: self.tokens.saturating_add(rest.tokens),
            cost: self.cost + rest.cost,
            cost_known: self.cost_known && rest.cost_known,
            latency: self.latency.saturating_add(rest.latency),
            exit: rest.exit,
        }
    }
    pub(super) fn then(&self, edge: Option<usize>, rest: &Partial) -> Partial {
        let extra: Vec<Step> = edge.map(Step::Edge).into_iter().collect();
        self.then_with(&extra, rest)
    }
    /// Branches run together: tokens and cost add, latency is the slowest.
    pub(super) fn together(parts: &[(Option<usize>, &Partial)]) -> Partial {
        let mut p = Partial::empty();
        let mut items = Vec::new();
        for (edge, b) in parts {
            items.extend(edge.map(Step::Edge));
            items.extend(steps_of(&b.steps));
            p.tokens = p.tokens.saturating_add(b.tokens);
            p.cost += b.cost;
            p.cost_known &= b.cost_known;
            p.latency = p.latency.max(b.latency);
            p.exit = p.exit.or(b.exit);
        }
        p.steps = prepend(&items, None);
        p
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Metric {
    Tokens,
    Cost,
    Latency,
}

pub(super) fn metric(p: &Partial, m: Metric) -> f64 {
    match m {
        Metric::Tokens => p.tokens as f64,
        Metric::Cost => p.cost,
        Metric::Latency => p.latency as f64,
    }
}
