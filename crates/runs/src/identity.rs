//! Whether a run ran the graph that is open, and if not, how they differ. Hashes are compared as
//! the record wrote them (a run log's `sha256:` of the graph file, Weaveflow's `graph_hash`,
//! which cannot be recomputed offline); where the record has none, the nodes decide.

use serde::Serialize;
use sha2::{Digest, Sha256};
use ts_rs::TS;

use crate::graph::GraphShape;
use crate::model::{Run, RunSource};

/// A graph file's hash as the run log records it: `sha256:` and the hex digest of its bytes.
pub fn graph_hash(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut out = String::with_capacity(7 + 64);
    out.push_str("sha256:");
    for b in digest {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

/// How the run's graph relates to the document's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "kebab-case")]
#[ts(export)]
pub enum Verdict {
    /// The record's hash is the document's.
    Same,
    /// No hash to compare, and every node the run visited is in the document.
    NodesMatch,
    /// Another version: the hash differs, or nodes the run visited are missing.
    OtherVersion,
    /// No node the run visited is in the document.
    Unmatched,
}

/// The verdict and what it rests on.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct GraphMatch {
    pub verdict: Verdict,
    /// What to tell the user, in one or two sentences.
    pub message: String,
    /// Nodes the run visited that the document lacks (drawn as ghosts).
    pub missing: Vec<String>,
    /// How many distinct nodes the run visited that the document has.
    pub matched: usize,
}

/// Judges a run against the document (`hashes`: the document's hashes, of its file as on disk
/// and as it would be saved now).
pub fn judge(run: &Run, graph: &GraphShape, hashes: &[String]) -> GraphMatch {
    let mut visited: Vec<&str> = Vec::new();
    for s in run.steps.iter().filter(|s| s.on_path()) {
        let n = s.node.as_deref().unwrap_or("");
        if !visited.contains(&n) {
            visited.push(n);
        }
    }
    let missing: Vec<String> =
        visited.iter().filter(|n| !graph.has_node(n)).map(|n| (*n).to_owned()).collect();
    let matched = visited.iter().filter(|n| graph.has_node(n) && **n != trellis_spec::START).count();
    let names = match (&run.graph.name, &graph.name) {
        (Some(a), Some(b)) if a != b => format!(" It names its graph \"{a}\"; the document is \"{b}\"."),
        _ => String::new(),
    };
    let missing_words = || {
        let shown: Vec<&str> = missing.iter().take(5).map(String::as_str).collect();
        let more = missing.len().saturating_sub(5);
        let list = shown.join(", ");
        if more > 0 {
            format!("{list} and {more} more")
        } else {
            list
        }
    };
    let hash_same = run.graph.hash.as_ref().is_some_and(|h| hashes.iter().any(|d| d == h));
    let (verdict, message) = if matched == 0 && !visited.is_empty() {
        (
            Verdict::Unmatched,
            format!(
                "This run matches nothing in the document: none of the {} node(s) it visited ({}) is here.{names} Open it beside the graph it ran.",
                visited.len(),
                missing_words()
            ),
        )
    } else if hash_same {
        (Verdict::Same, "The run was recorded on this version of the graph.".to_owned())
    } else if !missing.is_empty() {
        (
            Verdict::OtherVersion,
            format!(
                "The run was recorded on another version of the graph: it visited {} node(s) this document lacks ({}), drawn as ghosts.{names}",
                missing.len(),
                missing_words()
            ),
        )
    } else if run.graph.hash.is_some() && run.source != RunSource::Weaveflow {
        (
            Verdict::OtherVersion,
            format!(
                "The run was recorded on another version of the graph (its hash differs); every node it visited is in this document.{names}"
            ),
        )
    } else {
        let why = if run.source == RunSource::Weaveflow && run.graph.hash.is_some() {
            "Weaveflow's graph hash cannot be checked offline"
        } else {
            "the record does not say which version of the graph it ran"
        };
        (Verdict::NodesMatch, format!("Every node the run visited is in this document ({why}).{names}"))
    };
    GraphMatch { verdict, message, missing, matched }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_is_sha256_of_the_bytes() {
        assert_eq!(
            graph_hash(b"abc"),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
