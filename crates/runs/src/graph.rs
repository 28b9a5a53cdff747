//! What the run readers and views need of a graph: its node ids, its edges (with the
//! unconditional ones from `__start__` told apart), and its channels' reducers. Built from a
//! GraphSpec (any format's canvas projection is one), plus edges a format draws that are not
//! in its edge list (Weaveflow's entry and finish points).

use indexmap::{IndexMap, IndexSet};
use serde_json::{Map, Value};
use trellis_spec::{GraphSpec, Reducer, END, START};

/// A graph as runs see it.
#[derive(Debug, Clone, Default)]
pub struct GraphShape {
    pub name: Option<String>,
    /// Node ids in declaration order.
    pub nodes: IndexSet<String>,
    /// Edges by their ends, each once, in document order (`__start__` and `__end__` included).
    pub edges: IndexSet<(String, String)>,
    /// The nodes `__start__` leads to unconditionally: the first superstep's.
    pub start_nodes: Vec<String>,
    pub reducers: Reducers,
}

impl GraphShape {
    pub fn from_spec(spec: &GraphSpec) -> GraphShape {
        let nodes: IndexSet<String> = spec.nodes.iter().map(|n| n.id.to_string()).collect();
        let edges: IndexSet<(String, String)> =
            spec.edges.iter().map(|e| (e.from.to_string(), e.to.to_string())).collect();
        let start_nodes = spec
            .edges
            .iter()
            .filter(|e| e.from == START && e.when.is_none() && e.to != END)
            .map(|e| e.to.to_string())
            .collect();
        GraphShape { name: spec.name.clone(), nodes, edges, start_nodes, reducers: Reducers::from_spec(spec) }
    }

    /// Adds edges the format draws beside its edge list (an entry point is a `__start__` edge).
    pub fn with_edges(mut self, extra: impl IntoIterator<Item = (String, String)>) -> GraphShape {
        for (from, to) in extra {
            if from == START && to != END && !self.start_nodes.contains(&to) {
                self.start_nodes.push(to.clone());
            }
            self.edges.insert((from, to));
        }
        self
    }

    pub fn has_node(&self, id: &str) -> bool {
        self.nodes.contains(id) || id == START || id == END
    }

    pub fn has_edge(&self, from: &str, to: &str) -> bool {
        self.edges.contains(&(from.to_owned(), to.to_owned()))
    }
}

/// How each channel folds a write (`last_write` for a channel the graph does not declare, or
/// when there is no graph: the write wins).
#[derive(Debug, Clone, Default)]
pub struct Reducers {
    channels: IndexMap<String, Reducer>,
}

impl Reducers {
    pub fn from_spec(spec: &GraphSpec) -> Reducers {
        let channels = spec
            .channels
            .iter()
            .map(|(name, c)| (name.clone(), Reducer::from_name(&c.reducer).unwrap_or(Reducer::LastWrite)))
            .collect();
        Reducers { channels }
    }

    /// The channels the graph declares, in order.
    pub fn declared(&self) -> impl Iterator<Item = &str> {
        self.channels.keys().map(String::as_str)
    }

    /// Folds `update` into `state`, each channel by its reducer.
    pub fn fold(&self, state: &mut Map<String, Value>, update: &Map<String, Value>) {
        for (name, value) in update {
            let folded = match self.channels.get(name) {
                Some(r) => r.apply(state.get(name), value),
                None => value.clone(),
            };
            state.insert(name.clone(), folded);
        }
    }
}
