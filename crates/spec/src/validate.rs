//! THE validator: one function that the canvas badges, the problems panel, the save refusal
//! and `trellis validate` all call, so they always show the same diagnostics.
//!
//! It runs every `fromSpec` and `compile` check of formats.md §1.5 (collected, not first-only),
//! the analysis warnings of [`crate::analysis`], and, when a registry is given, the config
//! schema checks of [`crate::config_check`]. With no registry, type checks are skipped.

use crate::analysis;
use crate::checks;
use crate::config_check;
use crate::diagnostic::Diagnostic;
use crate::model::GraphSpec;
use crate::registry::Registry;
use crate::walk::Walk;

pub use crate::checks::codes;

/// Below this many nodes and edges the stages run on the calling thread: a thread costs more
/// than it saves on a small document (and most documents are small).
const PARALLEL_FROM: usize = 4_000;

/// Every problem in `spec`, in document order within each stage (fromSpec checks, compile
/// checks, analysis, config schemas, the channels configs name).
pub fn validate(spec: &GraphSpec, registry: Option<&Registry>) -> Vec<Diagnostic> {
    let stages = if spec.nodes.len() + spec.edges.len() >= PARALLEL_FROM {
        stages_side_by_side(spec, registry)
    } else {
        stages_in_turn(spec, registry)
    };
    stages.concat()
}

/// The findings of each stage, in the order [`validate`] gives them: the channel checks, the
/// node checks, the predicate checks, the edge checks, the graph's searches, the values, the
/// config schemas, the channels configs name.
type Stages = [Vec<Diagnostic>; 8];

fn stages_in_turn(spec: &GraphSpec, registry: Option<&Registry>) -> Stages {
    let walk = Walk::of(spec);
    [
        checks::check_channels(spec),
        checks::check_nodes_walked(spec, registry, &walk),
        checks::check_predicates(spec),
        checks::check_topology_walked(spec, &walk),
        analysis::graph_findings(spec, &walk, false),
        analysis::analyze_values(spec),
        configs_of(spec, registry),
        channels_of(spec, registry),
    ]
}

/// [`stages_in_turn`] on a large document: the app validates after every edit, and the machines
/// this runs on have at least two cores. The walk of the graph (every id hashed once) comes
/// first on one side, then what reads it: the node and edge checks and the graph's searches;
/// the other side has what needs no walk. Which side is larger depends on the document (the
/// searches on most, the config schemas on one built on constrained types), so rayon's work
/// stealing balances them.
fn stages_side_by_side(spec: &GraphSpec, registry: Option<&Registry>) -> Stages {
    let walked = || {
        let walk = Walk::of(spec);
        let (graph, (nodes, topology)) = rayon::join(
            || analysis::graph_findings(spec, &walk, true),
            || {
                (
                    checks::check_nodes_walked(spec, registry, &walk),
                    checks::check_topology_walked(spec, &walk),
                )
            },
        );
        (nodes, topology, graph)
    };
    let unwalked = || {
        rayon::join(
            || (checks::check_channels(spec), checks::check_predicates(spec)),
            || {
                rayon::join(
                    || analysis::analyze_values(spec),
                    || rayon::join(|| configs_of(spec, registry), || channels_of(spec, registry)),
                )
            },
        )
    };
    let ((nodes, topology, graph), ((channels, predicates), (values, (configs, config_channels)))) =
        rayon::join(walked, unwalked);
    [channels, nodes, predicates, topology, graph, values, configs, config_channels]
}

/// The fromSpec and compile checks: channels, nodes, predicates, topology (one after the other,
/// each with its own id set: what [`validate`] gives, for the test that compares them).
#[cfg(test)]
fn checks_of(spec: &GraphSpec, registry: Option<&Registry>) -> Vec<Diagnostic> {
    let mut out = checks::check_channels(spec);
    let (nodes, ids) = checks::check_nodes_keeping_ids(spec, registry);
    out.extend(nodes);
    out.extend(checks::check_predicates(spec));
    out.extend(checks::check_topology(
        &ids,
        spec.edges.iter().map(|e| (e.from.as_str(), e.to.as_str())),
        std::iter::empty(),
    ));
    out
}

/// The registry's checks of the configs against their schemas.
fn configs_of(spec: &GraphSpec, registry: Option<&Registry>) -> Vec<Diagnostic> {
    registry.map(|r| config_check::check_configs(spec, r)).unwrap_or_default()
}

/// The channels the configs name, checked against the document's.
fn channels_of(spec: &GraphSpec, registry: Option<&Registry>) -> Vec<Diagnostic> {
    registry.map(|r| crate::channel_refs::check_config_channels(spec, r)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::parse_spec;

    /// The node and edge checks read the shared walk exactly as they read their own id set:
    /// empty, reserved and repeated ids, and edges that name `__start__` as a target or
    /// `__end__` as a source, with and without a node so named, dangling or not.
    #[test]
    fn the_walked_checks_are_the_set_checks() {
        let edges = r#"[{"from":"__start__","to":"a"},{"from":"a","to":"__start__"},
            {"from":"__end__","to":"a"},{"from":"a","to":"__end__"},{"from":"x","to":"__start__"},
            {"from":"__end__","to":"y"},{"from":"","to":"a"},{"from":"a","to":""},
            {"from":"__start__","to":"__end__"},{"from":"a","to":"a"},{"from":"a","to":"a"}]"#;
        let node_lists = [
            r#"[{"id":"a","type":"t"}]"#,
            r#"[{"id":"a","type":"t"},{"id":"__start__","type":"t"}]"#,
            r#"[{"id":"__end__","type":"t"},{"id":"a","type":"t"},{"id":"a"}]"#,
            r#"[{"id":"","type":"t"},{"id":"","type":"t"},{"id":"__start__"},{"id":"__start__"},{"id":"__end__"},{"id":"a","type":"t"}]"#,
        ];
        let registry = crate::builtin::default_registry();
        for nodes in node_lists {
            let text = format!(r#"{{"channels":{{}},"nodes":{nodes},"edges":{edges}}}"#);
            let spec = parse_spec(&text).spec.expect("the document reads");
            for registry in [None, Some(&registry)] {
                let mut one_by_one = checks_of(&spec, registry);
                one_by_one.extend(analysis::analyze(&spec));
                one_by_one.extend(configs_of(&spec, registry));
                one_by_one.extend(channels_of(&spec, registry));
                assert_eq!(validate(&spec, registry), one_by_one, "{nodes}");
            }
        }
    }

    /// A document over the parallel threshold with findings from every stage: the split run
    /// gives what the stages give one after another, in the same order.
    #[test]
    fn a_large_document_gets_the_stages_findings_in_order() {
        let n = PARALLEL_FROM;
        // Every hundredth node has a config its type refuses and names a channel not declared.
        let mut nodes: Vec<String> = (0..n)
            .map(|i| match i % 100 {
                50 => format!(
                    r#"{{"id":"n{i}","type":"llm","config":{{"temperature":9,"output_channel":"nope"}}}}"#
                ),
                _ => format!(r#"{{"id":"n{i}","type":"t"}}"#),
            })
            .collect();
        nodes.push(r#"{"id":"n0","type":"t"}"#.to_owned()); // a duplicate id
        let mut edges = vec![r#"{"from":"__start__","to":"n0"}"#.to_owned()];
        // Every tenth node is left unreachable; every hundredth edge is declared twice.
        for i in 1..n {
            if i % 10 != 0 {
                edges.push(format!(r#"{{"from":"n{}","to":"n{i}"}}"#, i - 1));
            }
            if i % 100 == 0 {
                edges.push(format!(r#"{{"from":"n{}","to":"n{i}"}}"#, i - 1));
            }
        }
        // A dangling edge declared twice: a duplicate keyed by its ids, not graph indices.
        edges.push(r#"{"from":"n1","to":"ghost","when":{"channel":"nope","eq":1}}"#.to_owned());
        edges.push(r#"{"from":"n1","to":"ghost"}"#.to_owned());
        let text = format!(
            r#"{{"channels":{{"c":{{}}}},"nodes":[{}],"edges":[{}]}}"#,
            nodes.join(","),
            edges.join(",")
        );
        let last_edge = edges.len() - 1;
        let spec = parse_spec(&text).spec.expect("the document reads");
        assert!(spec.nodes.len() + spec.edges.len() >= PARALLEL_FROM);
        let registry = crate::builtin::default_registry();
        for registry in [None, Some(&registry)] {
            let mut one_by_one = checks_of(&spec, registry);
            one_by_one.extend(analysis::analyze(&spec));
            one_by_one.extend(configs_of(&spec, registry));
            one_by_one.extend(channels_of(&spec, registry));
            assert_eq!(validate(&spec, registry), one_by_one);
        }
        let got = validate(&spec, Some(&registry));
        let configs = got.iter().filter(|d| d.code == crate::config_check::codes::INVALID).count();
        let channels =
            got.iter().filter(|d| d.code == crate::channel_refs::codes::UNDECLARED_CHANNEL).count();
        assert_eq!((configs, channels), (n / 100, n / 100));
        let codes: std::collections::HashSet<&str> = got.iter().map(|d| d.code.as_str()).collect();
        for code in [
            checks::codes::DUPLICATE_NODE,
            checks::codes::UNKNOWN_EDGE_TARGET,
            checks::codes::UNDECLARED_CHANNEL,
            analysis::codes::UNREACHABLE_NODE,
            analysis::codes::DUPLICATE_EDGE,
        ] {
            assert!(codes.contains(code), "{code} missing from {codes:?}");
        }
        let ghost_twin = format!("/edges/{last_edge}");
        assert!(
            got.iter().any(|d| d.code == analysis::codes::DUPLICATE_EDGE && d.pointer == ghost_twin),
            "the dangling edge's twin is not reported as a duplicate"
        );
    }
}
