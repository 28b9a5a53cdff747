//! The Weaveflow validator (formats.md §2.4): `GraphDefinition.Validate()` after Go's
//! normalization (trimmed values, `name := id`), then the graph-build checks, then the
//! registry checks (node and condition types with their config shapes, state bindings,
//! policies). Unlike Go, which stops at the first problem, every problem is reported, in the
//! reference's order. Messages are the reference's wording where it has one.
//!
//! Order of the output:
//! 1. `Validate()`: version, state modules, nodes, entry/finish point, then edge by edge.
//! 2. Build: entry point set, default-edge rules per node, condition resolvers edge by edge,
//!    topology.
//! 3. Registry and contracts: node types and configs, state bindings, policies.
//!
//! Two build messages are not emitted because `Validate()` already refuses the same thing with
//! its own message: `default edge %q -> %q is duplicated` (any duplicate pair is
//! `graph edge … is duplicated`) and `failure route source/target %q not found` (an edge end
//! that is not a node is `graph edge source/target … not found`). Likewise the build's
//! `entry point %q not found` / `finish point %q not found`.

use std::collections::{HashMap, HashSet};

use trellis_spec::builtin::SOURCE as BUILTIN_SOURCE;
use trellis_spec::diagnostic::pointer_push;
use trellis_spec::{json, Diagnostic, Registry, Severity};

use super::bindings::{path_problem, reducer_ok};
use super::builtin::{self, ERROR_CLASSES, FAILURE_STAGES, RENAMED_CONDITIONS, STATE_MODULES};
use super::codes;
use super::conditions;
use super::generation::Generation;
use super::model::{GraphDefinition, StateBinding, END_NODE};
use super::policy;
use super::read::{parse, Parsed};
use super::shape::{check_config, check_ports, Problem};
use super::topology;

/// The version the format has used most recently (`dsl/dsl.go@9ae3512`); "2.0" in between.
pub const DEFAULT_VERSION: &str = "1.0";

/// Validation settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidateOptions {
    /// The exact `version` string accepted (after trimming). Default "1.0".
    pub expected_version: String,
}

impl Default for ValidateOptions {
    fn default() -> Self {
        ValidateOptions { expected_version: DEFAULT_VERSION.to_owned() }
    }
}

/// Reads and validates a text: reading problems, then validation problems, spans filled.
/// Validation runs whenever the text held a JSON object, so one pass shows everything.
pub fn check_text(text: &str, registry: Option<&Registry>, options: &ValidateOptions) -> Parsed {
    let mut parsed = parse(text);
    if let Some(doc) = &parsed.doc {
        let mut more = validate(doc.definition(), registry, options);
        fill_spans(doc, text, &mut more);
        parsed.diagnostics.extend(more);
    }
    parsed
}

/// Fills the spans of findings about `doc` from `text`, the document's text: for a transfer
/// file, a finding about the definition (its pointer is into the definition) is placed where
/// the definition sits in the file.
pub fn fill_spans(doc: &super::WeaveflowDoc, text: &str, diagnostics: &mut [Diagnostic]) {
    match doc.transfer() {
        Some(t) => super::transfer::fill_spans(t, text, diagnostics),
        None => json::fill_spans(text, diagnostics),
    }
}

/// Validates a definition. `registry` adds project node types (and condition types) to
/// Weaveflow's built-in ones.
pub fn validate(
    def: &GraphDefinition,
    registry: Option<&Registry>,
    options: &ValidateOptions,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    definition_rules(def, options, &mut out);
    build_rules(def, registry, &mut out);
    registry_rules(def, registry, &mut out);
    out
}

/// The runtime's refusal of the `version`, and why, when the definition is of another
/// generation whose shape the runtime reads under its own version (with the fix to say so).
fn version_problem(def: &GraphDefinition, expected: &str, version: &str) -> Diagnostic {
    let refusal = format!("graph definition version must be \"{expected}\", got \"{version}\"");
    let d = |m: String| Diagnostic::error(codes::VERSION, m).at("/version").on(trellis_spec::Element::Graph);
    // The generation from what the document declares: "2.0" is the 2.0 generation's alone; a
    // "1.0" is the current one when it has state modules (without, it may be the early one).
    let generation = match (version, def.state_modules.is_empty()) {
        ("2.0", _) => Generation::TwoZero,
        ("1.0" | "", false) => Generation::Current,
        _ => return d(refusal),
    };
    let (now, other) = match expected {
        "1.0" => ("the current runtime", Generation::Current),
        "2.0" => ("the 2.0-era runtime", Generation::TwoZero),
        _ => return d(refusal),
    };
    if generation == other {
        return d(refusal);
    }
    d(format!(
        "{refusal}: this is a definition of {}; {now} reads the same state_modules shape as version \"{expected}\"",
        generation.describe()
    ))
    .with_fix(trellis_spec::fixes::set_version(expected, &format!("what {now} reads")))
}

fn edge_label(def: &GraphDefinition, i: usize) -> (String, String) {
    let e = &def.edges[i];
    (e.from.trim().to_owned(), e.to.trim().to_owned())
}

fn on_edge(d: Diagnostic, def: &GraphDefinition, i: usize) -> Diagnostic {
    let (f, t) = edge_label(def, i);
    d.on_edge(i, f, t)
}

/// `GraphDefinition.Validate()`.
fn definition_rules(def: &GraphDefinition, options: &ValidateOptions, out: &mut Vec<Diagnostic>) {
    let expected = options.expected_version.trim();
    let version = def.version.trim();
    if version != expected {
        out.push(version_problem(def, expected, version));
    }

    if def.state_modules.is_empty() {
        out.push(
            Diagnostic::error(
                codes::NO_STATE_MODULES,
                "graph definition must include at least one state module",
            )
            .at("/state_modules"),
        );
    }
    let mut modules = HashSet::new();
    for (i, m) in def.state_modules.iter().enumerate() {
        let (name, version) = (m.name.trim(), m.version.trim());
        let at = format!("/state_modules/{i}");
        if name.is_empty() || version.is_empty() {
            out.push(
                Diagnostic::error(
                    codes::STATE_MODULE_INCOMPLETE,
                    "graph state module name and version are required",
                )
                .at(at),
            );
        } else if !modules.insert((name, version)) {
            out.push(
                Diagnostic::error(
                    codes::STATE_MODULE_DUPLICATE,
                    format!("graph state module \"{name}\" version \"{version}\" is duplicated"),
                )
                .at(at),
            );
        } else if !STATE_MODULES.contains(&(name, version)) {
            out.push(
                Diagnostic::warning(
                    codes::UNKNOWN_STATE_MODULE,
                    format!("state module \"{name}\" version \"{version}\" is not one Trellis knows; the Weaveflow runtime must provide it"),
                )
                .at(at),
            );
        }
    }

    if def.nodes.is_empty() {
        out.push(
            Diagnostic::error(codes::NO_NODES, "graph definition must include at least one nodes")
                .at("/nodes"),
        );
    }
    let mut ids = HashSet::new();
    for (i, n) in def.nodes.iter().enumerate() {
        let id = n.id.trim();
        if id.is_empty() {
            out.push(
                Diagnostic::error(codes::NODE_ID_REQUIRED, "graph node id is required")
                    .at(format!("/nodes/{i}/id")),
            );
        }
        if n.type_name.trim().is_empty() {
            out.push(
                Diagnostic::error(codes::NODE_TYPE_REQUIRED, format!("graph node \"{id}\" type is required"))
                    .at(format!("/nodes/{i}/type"))
                    .on_node(id),
            );
        }
        if !id.is_empty() && !ids.insert(id) {
            out.push(
                Diagnostic::error(codes::NODE_ID_DUPLICATE, format!("graph node id \"{id}\" is duplicated"))
                    .at(format!("/nodes/{i}/id"))
                    .on_node(id),
            );
        }
    }

    let entry = def.entry_point.trim();
    if !entry.is_empty() && !ids.contains(entry) {
        out.push(
            Diagnostic::error(
                codes::ENTRY_POINT_NOT_FOUND,
                format!("graph entry point \"{entry}\" not found"),
            )
            .at("/entry_point"),
        );
    }
    let finish = def.finish_point.trim();
    if !finish.is_empty() && !ids.contains(finish) {
        out.push(
            Diagnostic::error(
                codes::FINISH_POINT_NOT_FOUND,
                format!("graph finish point \"{finish}\" not found"),
            )
            .at("/finish_point"),
        );
    }

    let mut pairs = HashSet::new();
    for (i, e) in def.edges.iter().enumerate() {
        let (from, to) = (e.from.trim(), e.to.trim());
        let at = format!("/edges/{i}");
        if from.is_empty() || to.is_empty() {
            out.push(on_edge(
                Diagnostic::error(codes::EDGE_ENDS_REQUIRED, "graph edge requires from and to").at(at),
                def,
                i,
            ));
            continue;
        }
        if !pairs.insert((from, to)) {
            out.push(on_edge(
                Diagnostic::error(
                    codes::EDGE_DUPLICATE,
                    format!("graph edge \"{from}\" -> \"{to}\" is duplicated"),
                )
                .at(&*at),
                def,
                i,
            ));
        }
        if !ids.contains(from) {
            out.push(on_edge(
                Diagnostic::error(
                    codes::EDGE_SOURCE_NOT_FOUND,
                    format!("graph edge source \"{from}\" not found"),
                )
                .at(format!("{at}/from")),
                def,
                i,
            ));
        }
        if to != END_NODE && !ids.contains(to) {
            out.push(on_edge(
                Diagnostic::error(
                    codes::EDGE_TARGET_NOT_FOUND,
                    format!("graph edge target \"{to}\" not found"),
                )
                .at(format!("{at}/to")),
                def,
                i,
            ));
        }
        if let Some(c) = &e.condition {
            if c.type_name.trim().is_empty() {
                out.push(on_edge(
                    Diagnostic::error(
                        codes::CONDITION_TYPE_REQUIRED,
                        "graph edge condition type is required",
                    )
                    .at(format!("{at}/condition/type")),
                    def,
                    i,
                ));
            }
        }
        if e.condition.is_some() && e.failure.is_some() {
            out.push(on_edge(
                Diagnostic::error(
                    codes::CONDITION_AND_FAILURE,
                    format!("graph edge \"{from}\" -> \"{to}\" cannot declare both condition and failure"),
                )
                .at(&*at),
                def,
                i,
            ));
        }
        if let Some(f) = &e.failure {
            let prefix = format!("graph edge \"{from}\" -> \"{to}\" failure route: ");
            let fat = format!("{at}/failure");
            if f.stages.is_empty() && f.error_classes.is_empty() && !f.catch_all {
                out.push(on_edge(
                    Diagnostic::error(
                        codes::FAILURE_ROUTE_EMPTY,
                        format!("{prefix}failure route must declare a stage, error class, or catch_all"),
                    )
                    .at(&*fat),
                    def,
                    i,
                ));
            }
            for (j, s) in f.stages.iter().enumerate() {
                if !FAILURE_STAGES.contains(&s.trim()) {
                    out.push(on_edge(
                        Diagnostic::error(
                            codes::FAILURE_STAGE_INVALID,
                            format!("{prefix}failure route stage \"{s}\" is invalid"),
                        )
                        .at(format!("{fat}/stages/{j}")),
                        def,
                        i,
                    ));
                }
            }
            for (j, c) in f.error_classes.iter().enumerate() {
                if !ERROR_CLASSES.contains(&c.trim()) {
                    out.push(on_edge(
                        Diagnostic::error(
                            codes::FAILURE_ERROR_CLASS_INVALID,
                            format!(
                                "{prefix}failure route error class \"{c}\" is invalid; expected one of: {}",
                                ERROR_CLASSES.join(", ")
                            ),
                        )
                        .at(format!("{fat}/error_classes/{j}")),
                        def,
                        i,
                    ));
                }
            }
        }
    }
}

/// `graph.Builder.Build`: entry point, default edges, conditions, topology.
fn build_rules(def: &GraphDefinition, registry: Option<&Registry>, out: &mut Vec<Diagnostic>) {
    if def.entry_point.trim().is_empty() {
        out.push(Diagnostic::error(codes::ENTRY_POINT_NOT_SET, "entry point is not set").at("/entry_point"));
    }

    let finish = def.finish_point.trim();
    // (conditional, default) edge counts per source, in one pass.
    let mut counts: HashMap<&str, (usize, usize)> = HashMap::new();
    for e in &def.edges {
        let c = counts.entry(e.from.trim()).or_default();
        if e.condition.is_some() {
            c.0 += 1;
        } else if e.is_default() {
            c.1 += 1;
        }
    }
    let mut seen = HashSet::new();
    for (i, n) in def.nodes.iter().enumerate() {
        let id = n.id.trim();
        if id.is_empty() || !seen.insert(id) {
            continue;
        }
        let (conditional, defaults) = counts.get(id).copied().unwrap_or_default();
        if conditional > 0 && defaults > 1 {
            out.push(
                Diagnostic::error(
                    codes::MULTIPLE_DEFAULT_EDGES,
                    format!(
                        "node \"{id}\" cannot combine conditional edges with multiple default fallback edges"
                    ),
                )
                .at(format!("/nodes/{i}"))
                .on_node(id),
            );
        }
        if conditional > 0 && defaults == 0 && id != finish {
            out.push(
                Diagnostic::error(
                    codes::NO_DEFAULT_EDGE,
                    format!("node \"{id}\" has conditional edges but no default fallback edge"),
                )
                .at(format!("/nodes/{i}"))
                .on_node(id),
            );
        }
    }

    for (i, e) in def.edges.iter().enumerate() {
        let Some(c) = &e.condition else { continue };
        let t = c.type_name.trim();
        if t.is_empty() {
            continue;
        }
        let base = format!("/edges/{i}/condition");
        let (from, to) = edge_label(def, i);
        if builtin::condition_type(t).is_some() {
            for p in conditions::check(c, &base) {
                out.push(on_edge(
                    problem(
                        codes::CONDITION_INVALID,
                        &p,
                        &format!("conditional edge from \"{from}\" to \"{to}\": "),
                    ),
                    def,
                    i,
                ));
            }
        } else if !project_type(registry, t) {
            let hint = RENAMED_CONDITIONS
                .iter()
                .find(|(old, _)| *old == t)
                .map(|(_, new)| format!(" (it was renamed to \"{new}\")"))
                .unwrap_or_default();
            let known: Vec<&str> = builtin::CONDITION_TYPES.iter().map(|c| c.name).collect();
            out.push(on_edge(
                Diagnostic::error(
                    codes::UNKNOWN_CONDITION_TYPE,
                    format!(
                        "conditional edge from \"{from}\" to \"{to}\": unknown condition type \"{t}\"{hint}. Known condition types: {}",
                        known.join(", ")
                    ),
                )
                .at(format!("{base}/type")),
                def,
                i,
            ));
        }
    }

    topology::check(def, out);
}

fn problem(code: &str, p: &Problem, prefix: &str) -> Diagnostic {
    let code = if p.severity == Severity::Warning && p.message.contains("has no state port") {
        codes::UNKNOWN_PORT
    } else {
        code
    };
    Diagnostic::new(code, p.severity, format!("{prefix}{}", p.message)).at(p.pointer.clone())
}

/// Registry and contract analysis: node types and configs, bindings, policies.
fn registry_rules(def: &GraphDefinition, registry: Option<&Registry>, out: &mut Vec<Diagnostic>) {
    for (i, n) in def.nodes.iter().enumerate() {
        let (id, t) = (n.id.trim(), n.type_name.trim());
        if t.is_empty() {
            continue;
        }
        let base = format!("/nodes/{i}");
        // A project type of the same name is the project's own definition.
        let builtin = builtin::node_type(t).filter(|_| !project_type(registry, t));
        if let Some(b) = builtin {
            if let Some(r) = &b.replaced {
                out.push(replaced(id, i, b, r));
            }
            let what = format!("node \"{id}\"");
            for p in check_config(b, &n.config, &format!("{base}/config"), &format!("{what} config"), id) {
                out.push(problem(codes::NODE_CONFIG_INVALID, &p, "").on_node(id));
            }
            for p in check_ports(b, &n.state, &format!("{base}/state"), &format!("{what} ({t})")) {
                out.push(problem(codes::NODE_CONFIG_INVALID, &p, "").on_node(id));
            }
        } else if !project_type(registry, t) {
            let mut known: Vec<&str> =
                builtin::NODE_TYPES.iter().filter(|b| b.replaced.is_none()).map(|b| b.name).collect();
            if let Some(r) = registry {
                known.extend(
                    r.types().filter(|nt| nt.source != BUILTIN_SOURCE).map(|nt| nt.info.type_name.as_str()),
                );
            }
            let mut d = Diagnostic::error(
                codes::UNKNOWN_NODE_TYPE,
                format!("graph node \"{id}\" has unknown type \"{t}\". Known types: {}", known.join(", ")),
            )
            .at(format!("{base}/type"))
            .on_node(id);
            d.fixes = trellis_spec::fixes::unknown_type(id, t, &known);
            out.push(d);
        }
    }

    for (i, n) in def.nodes.iter().enumerate() {
        let id = n.id.trim();
        for (port, b) in &n.state {
            let at = pointer_push(&format!("/nodes/{i}/state"), port);
            for d in binding(b, &at, &format!("node \"{id}\" port \"{port}\"")) {
                out.push(d.on_node(id));
            }
        }
    }
    for (i, e) in def.edges.iter().enumerate() {
        let Some(c) = &e.condition else { continue };
        for (port, b) in &c.state {
            let at = pointer_push(&format!("/edges/{i}/condition/state"), port);
            let (f, t) = edge_label(def, i);
            for d in binding(b, &at, &format!("condition on \"{f}\" -> \"{t}\" port \"{port}\"")) {
                out.push(on_edge(d, def, i));
            }
        }
    }

    for (i, n) in def.nodes.iter().enumerate() {
        if let Some(p) = &n.policy {
            policy::check_node(n.id.trim(), &format!("/nodes/{i}/policy"), p, out);
        }
    }
    if let Some(p) = &def.policy {
        policy::check_graph(p, out);
    }
}

/// True when a project registry describes `type_name`. Trellis's built-in GraphSpec types
/// (`llm`, `http`, `classifier`) are no Weaveflow types: a Weaveflow document is checked
/// against Weaveflow's own types and the project's, as the runtime's registry would find them.
fn project_type(registry: Option<&Registry>, type_name: &str) -> bool {
    registry.and_then(|r| r.get(type_name)).is_some_and(|t| t.source != BUILTIN_SOURCE)
}

/// The warning for a node of a type the newest Weaveflow registry replaced, naming the new type.
fn replaced(id: &str, index: usize, b: &builtin::BuiltinType, r: &builtin::Replaced) -> Diagnostic {
    let note = if r.note.is_empty() { String::new() } else { format!(" ({})", r.note) };
    Diagnostic::warning(
        codes::REPLACED_NODE_TYPE,
        format!(
            "node \"{id}\" has type \"{}\" ({}), which the newest Weaveflow registry ({}) no longer has: use \"{}\"{note}",
            b.name,
            b.source,
            builtin::NEWEST_REGISTRY,
            r.by
        ),
    )
    .at(format!("/nodes/{index}/type"))
    .on_node(id)
    .naming_type(b.name)
    .with_fix(trellis_spec::fixes::rename_type(id, r.by))
}

fn binding(b: &StateBinding, at: &str, what: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if let Some(problem) = path_problem(&b.path) {
        out.push(
            Diagnostic::error(codes::BINDING_PATH_INVALID, format!("{what}: {problem}"))
                .at(pointer_push(at, "path")),
        );
    }
    let r = b.reducer.trim();
    if !r.is_empty() && !reducer_ok(r) {
        out.push(
            Diagnostic::error(
                codes::BINDING_REDUCER_INVALID,
                format!("{what}: reducer \"{r}\" is not a versioned reducer id such as \"sum.v1\""),
            )
            .at(pointer_push(at, "reducer")),
        );
    }
    out
}
