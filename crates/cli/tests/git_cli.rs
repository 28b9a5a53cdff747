//! `trellis diff`, `trellis merge` and `trellis git-setup` in real Git repositories (temp
//! folders, the `git` command driving them as a person would): `git merge` with the driver set
//! up by `git-setup` gives the expected file or the expected conflict report, for GraphSpec,
//! Weaveflow and GRAPH.md; bad inputs exit 2 and write nothing.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{json, Value};

fn trellis(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_trellis")).current_dir(dir).args(args).output().expect("run trellis")
}

fn text(o: &[u8]) -> String {
    String::from_utf8_lossy(o).into_owned()
}

struct Repo {
    dir: tempfile::TempDir,
}

impl Repo {
    fn new() -> Repo {
        let r = Repo { dir: tempfile::tempdir().expect("temp dir") };
        r.git(&["init", "-q", "-b", "main"]);
        r.git(&["config", "user.email", "test@example.com"]);
        r.git(&["config", "user.name", "Test"]);
        r.git(&["config", "commit.gpgsign", "false"]);
        r
    }
    fn path(&self) -> &Path {
        self.dir.path()
    }
    fn git(&self, args: &[&str]) -> Output {
        let o = Command::new("git").current_dir(self.path()).args(args).output().expect("run git");
        o
    }
    fn ok(&self, args: &[&str]) {
        let o = self.git(args);
        assert!(o.status.success(), "git {args:?}: {}{}", text(&o.stdout), text(&o.stderr));
    }
    fn write(&self, name: &str, content: &str) {
        std::fs::write(self.path().join(name), content).expect("write");
    }
    fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.path().join(name)).expect("read")
    }
    fn commit(&self, msg: &str) {
        self.ok(&["add", "-A"]);
        self.ok(&["commit", "-q", "-m", msg]);
    }
}

/// The outcome of merging branch `theirs` into `main` after each side edited `name`.
struct Merged {
    clean: bool,
    file: String,
    report: Option<Value>,
    repo: Repo,
}

fn scenario(name: &str, base: &str, ours: &str, theirs: &str) -> Merged {
    let repo = Repo::new();
    repo.write(name, base);
    let setup = trellis(repo.path(), &["git-setup"]);
    assert!(setup.status.success(), "git-setup: {}", text(&setup.stderr));
    let said = text(&setup.stdout);
    assert!(said.contains("merge.trellis.driver"), "git-setup says what it did: {said}");
    repo.commit("base");
    repo.ok(&["checkout", "-q", "-b", "theirs"]);
    repo.write(name, theirs);
    repo.commit("theirs");
    repo.ok(&["checkout", "-q", "main"]);
    repo.write(name, ours);
    repo.commit("ours");
    let m = repo.git(&["merge", "--no-edit", "theirs"]);
    let report_path = repo.path().join(format!("{name}.conflicts.json"));
    let report =
        std::fs::read_to_string(&report_path).ok().map(|t| serde_json::from_str(&t).expect("report is JSON"));
    Merged { clean: m.status.success(), file: repo.read(name), report, repo }
}

fn edit(base: &str, f: impl FnOnce(&mut Value)) -> String {
    let mut v: Value = serde_json::from_str(base).expect("json");
    f(&mut v);
    serde_json::to_string_pretty(&v).expect("text")
}

fn nodes(v: &mut Value) -> &mut Vec<Value> {
    v["nodes"].as_array_mut().expect("nodes")
}

fn edges(v: &mut Value) -> &mut Vec<Value> {
    v["edges"].as_array_mut().expect("edges")
}

fn node<'a>(v: &'a mut Value, id: &str) -> &'a mut Value {
    nodes(v).iter_mut().find(|n| n["id"] == id).expect("node")
}

const SUPPORT: &str = include_str!("../../spec/tests/fixtures/valid/support.json");
const SUPERVISOR: &str = include_str!("../../../../shared/corpus/weaveflow/supervisor_mode.json");
const TRIAGE: &str = include_str!("../../formats/tests/fixtures/graphmd/support-triage.GRAPH.md");

/// The edges of a JSON document as `from>to`.
fn edge_ends(text: &str) -> Vec<String> {
    let v: Value = serde_json::from_str(text).expect("json");
    v["edges"].as_array().map_or(Vec::new(), |es| {
        es.iter()
            .map(|e| format!("{}>{}", e["from"].as_str().unwrap_or(""), e["to"].as_str().unwrap_or("")))
            .collect()
    })
}

fn node_ids(text: &str) -> Vec<String> {
    let v: Value = serde_json::from_str(text).expect("json");
    v["nodes"]
        .as_array()
        .map_or(Vec::new(), |ns| ns.iter().map(|n| n["id"].as_str().unwrap_or("").to_owned()).collect())
}

/// Git says the file is unmerged (`git status --porcelain`: `UU`).
fn unmerged(repo: &Repo, name: &str) -> bool {
    text(&repo.git(&["status", "--porcelain", name]).stdout).starts_with("UU ")
}

fn conflict_reasons(report: &Option<Value>) -> Vec<String> {
    report.as_ref().map_or(Vec::new(), |r| {
        r["conflicts"]
            .as_array()
            .map_or(Vec::new(), |cs| cs.iter().map(|c| c["reason"].to_string()).collect())
    })
}

// ---- GraphSpec ----

#[test]
fn graphspec_two_branches_adding_different_nodes_merge() {
    let ours =
        edit(SUPPORT, |v| nodes(v).push(json!({"id": "refund", "type": "say", "config": {"text": "r"}})));
    let theirs =
        edit(SUPPORT, |v| nodes(v).push(json!({"id": "escalate", "type": "say", "config": {"text": "e"}})));
    let m = scenario("support.json", SUPPORT, &ours, &theirs);
    assert!(m.clean && m.report.is_none(), "{:?}", m.report);
    assert!(m.file.contains("\"refund\"") && m.file.contains("\"escalate\""), "{}", m.file);
    // The merge is in canonical form: `fmt --check` finds nothing to do.
    let check = trellis(m.repo.path(), &["fmt", "--check", "support.json"]);
    assert!(check.status.success(), "{}", text(&check.stdout));
}

#[test]
fn graphspec_different_fields_of_one_config_merge() {
    let ours = edit(SUPPORT, |v| node(v, "buy")["config"]["text"] = json!("sold"));
    let theirs = edit(SUPPORT, |v| node(v, "buy")["config"]["tone"] = json!("warm"));
    let m = scenario("support.json", SUPPORT, &ours, &theirs);
    assert!(m.clean, "{:?}", m.report);
    let v: Value = serde_json::from_str(&m.file).expect("json");
    let buy =
        v["nodes"].as_array().and_then(|n| n.iter().find(|n| n["id"] == "buy")).cloned().unwrap_or_default();
    assert_eq!(buy["config"], json!({"text": "sold", "tone": "warm"}));
}

#[test]
fn graphspec_edits_of_different_nodes_merge() {
    let ours = edit(SUPPORT, |v| node(v, "buy")["config"]["text"] = json!("sold"));
    let theirs = edit(SUPPORT, |v| node(v, "browse")["config"]["text"] = json!("looked"));
    let m = scenario("support.json", SUPPORT, &ours, &theirs);
    assert!(m.clean, "{:?}", m.report);
    assert!(m.file.contains("\"sold\"") && m.file.contains("\"looked\""));
}

#[test]
fn graphspec_renaming_a_channel_against_using_it_is_a_conflict() {
    // Ours renames `intent` to `topic` (and its predicates); theirs adds an edge guarded on it.
    let ours = SUPPORT.replace("\"intent\"", "\"topic\"");
    let theirs = edit(SUPPORT, |v| {
        edges(v).push(json!({"from": "buy", "to": "browse", "when": {"channel": "intent", "eq": "more"}}))
    });
    let m = scenario("support.json", SUPPORT, &ours, &theirs);
    assert!(!m.clean);
    assert!(unmerged(&m.repo, "support.json"), "Git marks the file conflicted");
    // The file holds both sides: our rename and their new edge (which names the old channel).
    assert!(
        m.file.contains("\"topic\"") && edge_ends(&m.file).contains(&"buy>browse".to_owned()),
        "{}",
        m.file
    );
    assert_eq!(conflict_reasons(&m.report), vec!["\"invalid\""], "{:?}", m.report);
    let r = m.report.unwrap_or_default();
    assert!(r["conflicts"][0]["message"].as_str().unwrap_or("").contains("intent"), "{r}");
    assert_eq!(r["path"], json!("support.json"));
}

#[test]
fn graphspec_deleting_a_node_against_adding_an_edge_to_it_is_a_conflict() {
    let ours = edit(SUPPORT, |v| {
        nodes(v).retain(|n| n["id"] != "browse");
        edges(v).retain(|e| e["from"] != "browse" && e["to"] != "browse");
    });
    let theirs = edit(SUPPORT, |v| edges(v).push(json!({"from": "buy", "to": "browse"})));
    let m = scenario("support.json", SUPPORT, &ours, &theirs);
    assert!(!m.clean);
    // Our deletion and their edge are both in the file: the report says they do not fit.
    assert!(!node_ids(&m.file).contains(&"browse".to_owned()), "{}", m.file);
    assert!(edge_ends(&m.file).contains(&"buy>browse".to_owned()), "{}", m.file);
    assert_eq!(m.report.as_ref().map(|r| r["kept"].clone()), Some(json!("merged")));
    assert!(conflict_reasons(&m.report).contains(&"\"invalid\"".to_owned()), "{:?}", m.report);
}

#[test]
fn layout_sidecars_merge_by_union_through_the_driver() {
    // Each branch adds a node and places it, moves one node, and both move `browse`: the
    // document merges by element, its sidecar by union (OURS wins `browse`), no conflict.
    let repo = Repo::new();
    let layout =
        |ps: Value| serde_json::to_string_pretty(&json!({"version": 1, "positions": ps})).expect("text");
    let base_layout = layout(json!({
        "classify": {"x": 0, "y": 0}, "buy": {"x": 100, "y": 0}, "browse": {"x": 200, "y": 0}
    }));
    repo.write("support.json", SUPPORT);
    repo.write("support.layout.json", &base_layout);
    let setup = trellis(repo.path(), &["git-setup"]);
    assert!(setup.status.success(), "git-setup: {}", text(&setup.stderr));
    assert!(
        repo.read(".gitattributes").contains("*.layout.json merge=trellis"),
        "{}",
        repo.read(".gitattributes")
    );
    repo.commit("base");
    repo.ok(&["checkout", "-q", "-b", "theirs"]);
    repo.write(
        "support.json",
        &edit(SUPPORT, |v| nodes(v).push(json!({"id": "escalate", "type": "say", "config": {"text": "e"}}))),
    );
    repo.write(
        "support.layout.json",
        &layout(json!({
            "classify": {"x": 0, "y": 0}, "buy": {"x": 150, "y": 50}, "browse": {"x": 900, "y": 900},
            "escalate": {"x": 300, "y": 300}
        })),
    );
    repo.commit("theirs");
    repo.ok(&["checkout", "-q", "main"]);
    repo.write(
        "support.json",
        &edit(SUPPORT, |v| nodes(v).push(json!({"id": "refund", "type": "say", "config": {"text": "r"}}))),
    );
    repo.write(
        "support.layout.json",
        &layout(json!({
            "classify": {"x": -50, "y": 10}, "buy": {"x": 100, "y": 0}, "browse": {"x": 250, "y": 5},
            "refund": {"x": 400, "y": 400}
        })),
    );
    repo.commit("ours");
    let m = repo.git(&["merge", "--no-edit", "theirs"]);
    assert!(m.status.success(), "git merge: {}{}", text(&m.stdout), text(&m.stderr));
    assert!(!repo.path().join("support.layout.json.conflicts.json").exists());
    let merged: Value = serde_json::from_str(&repo.read("support.layout.json")).expect("the sidecar is JSON");
    assert_eq!(
        merged["positions"],
        json!({
            "classify": {"x": -50, "y": 10},
            "buy": {"x": 150, "y": 50},
            "browse": {"x": 250, "y": 5},
            "refund": {"x": 400, "y": 400},
            "escalate": {"x": 300, "y": 300}
        }),
        "each side's placements and moves, OURS where both moved"
    );
    assert_eq!(merged["version"], 1);
    let doc = repo.read("support.json");
    assert!(doc.contains("\"refund\"") && doc.contains("\"escalate\""), "{doc}");
    // Git's own merge of the sidecar would have conflicted (both sides changed the same lines).
    assert!(!repo.read("support.layout.json").contains("<<<<<<<"));
}

#[test]
fn graphspec_two_values_for_one_field_report_the_three_values() {
    let ours = edit(SUPPORT, |v| node(v, "buy")["config"]["text"] = json!("sold"));
    let theirs = edit(SUPPORT, |v| node(v, "buy")["config"]["text"] = json!("paid"));
    let m = scenario("support.json", SUPPORT, &ours, &theirs);
    assert!(!m.clean);
    let c = m.report.map(|r| r["conflicts"][0].clone()).unwrap_or_default();
    assert_eq!(c["element"], json!({"kind": "node", "id": "buy"}));
    assert_eq!(c["pointer"], json!("/config/text"));
    assert_eq!((&c["base"], &c["ours"], &c["theirs"]), (&json!("bought"), &json!("sold"), &json!("paid")));
}

/// Each side makes clean changes and both set one field: Git marks the file conflicted, the
/// file holds both sides' clean changes with ours at the conflict, the report carries the three
/// values; putting theirs at the reported pointer gives the whole three-way merge (what a
/// clean merge of the same changes gives).
#[test]
fn graphspec_a_conflict_leaves_both_sides_clean_changes_in_the_file() {
    let ours = edit(SUPPORT, |v| {
        node(v, "buy")["config"]["text"] = json!("sold");
        nodes(v).push(json!({"id": "refund", "type": "say", "config": {"text": "r"}}));
        node(v, "classify")["config"]["model"] = json!("ours-model");
    });
    let theirs = edit(SUPPORT, |v| {
        node(v, "browse")["config"]["text"] = json!("looked");
        edges(v).push(json!({"from": "buy", "to": "browse"}));
        node(v, "classify")["config"]["model"] = json!("their-model");
    });
    let m = scenario("support.json", SUPPORT, &ours, &theirs);
    assert!(!m.clean, "git merge fails");
    assert!(unmerged(&m.repo, "support.json"), "Git marks the file conflicted");
    let r = m.report.clone().expect("a report");
    assert_eq!((&r["version"], &r["kept"]), (&json!(2), &json!("merged")));
    assert_eq!(conflict_reasons(&m.report), vec!["\"both-added\""]);
    let c = &r["conflicts"][0];
    assert_eq!(
        (&c["element"], &c["pointer"]),
        (&json!({"kind": "node", "id": "classify"}), &json!("/config/model"))
    );
    assert_eq!((&c["ours"], &c["theirs"]), (&json!("ours-model"), &json!("their-model")));

    let mut file: Value = serde_json::from_str(&m.file).expect("json");
    for want in ["\"sold\"", "\"refund\"", "\"looked\"", "\"ours-model\""] {
        assert!(m.file.contains(want), "{want} in {}", m.file);
    }
    assert!(edge_ends(&m.file).contains(&"buy>browse".to_owned()));

    // Resolved by hand as the report says: theirs at the pointer.
    node(&mut file, "classify")["config"]["model"] = c["theirs"].clone();
    let ours_taking_theirs = edit(&ours, |v| node(v, "classify")["config"]["model"] = json!("their-model"));
    let clean = scenario("support.json", SUPPORT, &ours_taking_theirs, &theirs);
    assert!(clean.clean, "{:?}", clean.report);
    assert_eq!(file, serde_json::from_str::<Value>(&clean.file).expect("json"));
}

// ---- Weaveflow ----

#[test]
fn weaveflow_independent_edits_merge_and_a_dangling_edge_conflicts() {
    let ours = edit(SUPERVISOR, |v| node(v, "researcher")["description"] = json!("digs"));
    let theirs = edit(SUPERVISOR, |v| node(v, "synthesis")["description"] = json!("writes"));
    let m = scenario("supervisor.json", SUPERVISOR, &ours, &theirs);
    assert!(m.clean, "{:?}", m.report);
    assert!(m.file.contains("\"digs\"") && m.file.contains("\"writes\""));
    // Layout (metadata.web) survives the merge.
    assert!(m.file.contains("\"positions\""));

    let ours = edit(SUPERVISOR, |v| {
        nodes(v).retain(|n| n["id"] != "quantitative_analyst");
        edges(v).retain(|e| e["from"] != "quantitative_analyst" && e["to"] != "quantitative_analyst");
    });
    let theirs = edit(SUPERVISOR, |v| {
        node(v, "quantitative_analyst")["description"] = json!("counts");
    });
    let m = scenario("supervisor.json", SUPERVISOR, &ours, &theirs);
    assert!(!m.clean);
    assert_eq!(conflict_reasons(&m.report), vec!["\"changed-and-deleted\""], "{:?}", m.report);
}

#[test]
fn weaveflow_nodes_added_and_fields_of_one_config_merge() {
    let ours = edit(SUPERVISOR, |v| {
        nodes(v).push(json!({"id": "auditor", "name": "Auditor", "type": "llm_turn", "state": {}}))
    });
    let theirs = edit(SUPERVISOR, |v| {
        nodes(v).push(json!({"id": "critic", "name": "Critic", "type": "llm_turn", "state": {}}))
    });
    let m = scenario("supervisor.json", SUPERVISOR, &ours, &theirs);
    assert!(m.clean, "{:?}", m.report);
    assert!(m.file.contains("\"auditor\"") && m.file.contains("\"critic\""));

    let ours = edit(SUPERVISOR, |v| node(v, "researcher")["config"]["max_iterations"] = json!(8));
    let theirs = edit(SUPERVISOR, |v| node(v, "researcher")["config"]["role"] = json!("Dig."));
    let m = scenario("supervisor.json", SUPERVISOR, &ours, &theirs);
    assert!(m.clean, "{:?}", m.report);
    let v: Value = serde_json::from_str(&m.file).expect("json");
    let r = v["nodes"]
        .as_array()
        .and_then(|n| n.iter().find(|n| n["id"] == "researcher"))
        .cloned()
        .unwrap_or_default();
    assert_eq!((&r["config"]["max_iterations"], &r["config"]["role"]), (&json!(8), &json!("Dig.")));
}

#[test]
fn weaveflow_deleting_a_node_against_adding_an_edge_to_it_is_a_conflict() {
    let ours = edit(SUPERVISOR, |v| {
        nodes(v).retain(|n| n["id"] != "quantitative_analyst");
        edges(v).retain(|e| e["from"] != "quantitative_analyst" && e["to"] != "quantitative_analyst");
    });
    let theirs =
        edit(SUPERVISOR, |v| edges(v).push(json!({"from": "researcher", "to": "quantitative_analyst"})));
    let m = scenario("supervisor.json", SUPERVISOR, &ours, &theirs);
    assert!(!m.clean);
    assert!(!node_ids(&m.file).contains(&"quantitative_analyst".to_owned()), "{}", m.file);
    assert!(edge_ends(&m.file).contains(&"researcher>quantitative_analyst".to_owned()), "{}", m.file);
    assert!(conflict_reasons(&m.report).contains(&"\"invalid\"".to_owned()), "{:?}", m.report);
}

// ---- GRAPH.md ----

#[test]
fn graphmd_nodes_added_and_fields_of_one_node_merge() {
    let ours = TRIAGE.replace(
        "  - id: close\n    kind: human\n",
        "  - id: close\n    kind: human\n  - id: escalate\n    kind: human\n",
    );
    let theirs = TRIAGE.replace(
        "  - id: close\n    kind: human\n",
        "  - id: close\n    kind: human\n  - id: notify\n    kind: tool\n",
    );
    let m = scenario("GRAPH.md", TRIAGE, &ours, &theirs);
    assert!(m.clean, "{:?}", m.report);
    assert!(
        m.file.contains("- id: escalate\n    kind: human\n")
            && m.file.contains("- id: notify\n    kind: tool\n"),
        "{}",
        m.file
    );

    let ours = TRIAGE.replace("timeout_ms: 1000", "timeout_ms: 3000");
    let theirs = TRIAGE.replace("confidence_threshold: 0.8", "confidence_threshold: 0.95");
    let m = scenario("GRAPH.md", TRIAGE, &ours, &theirs);
    assert!(m.clean, "{:?}", m.report);
    assert!(
        m.file.contains("timeout_ms: 3000") && m.file.contains("confidence_threshold: 0.95"),
        "{}",
        m.file
    );
}

#[test]
fn graphmd_front_matter_and_body_merge() {
    let base = format!("{TRIAGE}\n# Support triage\n\nRoutes requests.\n\nEnds with a person.\n");
    let ours = base
        .replace("timeout_ms: 1000", "timeout_ms: 2000")
        .replace("Routes requests.", "Routes every request.");
    let theirs = base
        .replace("model_key: openai:gpt-5-mini", "model_key: openai:gpt-5")
        .replace("Ends with a person.", "Ends with a human.");
    let m = scenario("GRAPH.md", &base, &ours, &theirs);
    assert!(m.clean, "{:?}", m.report);
    for want in [
        "timeout_ms: 2000",
        "model_key: openai:gpt-5\n",
        "Routes every request.",
        "Ends with a human.",
        "exits: [close]",
    ] {
        assert!(m.file.contains(want), "{want} in\n{}", m.file);
    }
}

#[test]
fn graphmd_deleting_a_node_against_adding_an_edge_to_it_is_a_conflict() {
    let ours = TRIAGE.replace("  - id: answer\n    kind: agent\n    model_key: openai:gpt-5-mini\n", "").replace(
        "  - id: route-answer\n    from: route\n    to: answer\n    kind: conditional\n    condition: known_issue\n  - id: answer-close\n    from: answer\n    to: close\n",
        "",
    );
    assert_ne!(ours, TRIAGE);
    let theirs =
        TRIAGE.replace("edges:\n", "edges:\n  - id: close-answer\n    from: close\n    to: answer\n");
    let m = scenario("GRAPH.md", TRIAGE, &ours, &theirs);
    assert!(!m.clean);
    assert!(!m.file.contains("  - id: answer\n") && m.file.contains("  - id: close-answer\n"), "{}", m.file);
    assert!(conflict_reasons(&m.report).contains(&"\"invalid\"".to_owned()), "{:?}", m.report);
}

#[test]
fn graphmd_overlapping_body_edits_are_reported_not_marked() {
    let base = format!("{TRIAGE}\nOne line.\n");
    let ours = format!("{TRIAGE}\nOur line.\n");
    let theirs = format!("{TRIAGE}\nTheir line.\n");
    let m = scenario("GRAPH.md", &base, &ours, &theirs);
    assert!(!m.clean);
    assert!(!m.file.contains("<<<<<<<"), "no conflict markers: {}", m.file);
    let c = m.report.map(|r| r["conflicts"][0].clone()).unwrap_or_default();
    assert_eq!(c["element"], json!({"kind": "body"}));
    assert_eq!((&c["ours"], &c["theirs"]), (&json!("Our line.\n"), &json!("Their line.\n")));
}

// ---- diff through Git ----

#[test]
fn diff_reads_revisions_and_git_diff_shows_graph_lines() {
    let repo = Repo::new();
    repo.write("support.json", SUPPORT);
    let setup = trellis(repo.path(), &["git-setup"]);
    assert!(setup.status.success());
    repo.commit("one");
    let edited = edit(SUPPORT, |v| {
        nodes(v).push(json!({"id": "refund", "type": "say", "config": {}}));
        edges(v)[2]["when"]["neq"] = json!("sell");
    });
    repo.write("support.json", &edited);
    repo.commit("two");

    let d = trellis(repo.path(), &["diff", "HEAD~1:support.json", "HEAD:support.json"]);
    assert_eq!(d.status.code(), Some(1), "{}", text(&d.stderr));
    let out = text(&d.stdout);
    assert!(out.contains("+ node refund (say)") && out.contains("~ edge classify -> browse"), "{out}");
    assert_eq!(out.lines().filter(|l| !l.starts_with(' ')).count(), 2, "exactly two changes: {out}");
    let same = trellis(repo.path(), &["diff", "HEAD:support.json", "support.json"]);
    assert_eq!(same.status.code(), Some(0));
    let md = trellis(repo.path(), &["diff", "--format", "markdown", "HEAD~1:support.json", "support.json"]);
    assert!(text(&md.stdout).starts_with("### Graph changes:"));
    let js = trellis(repo.path(), &["diff", "--format", "json", "HEAD~1:support.json", "support.json"]);
    let v: Value = serde_json::from_slice(&js.stdout).expect("json");
    assert_eq!(v["changes"][0]["change"], json!("node-added"));

    // Plain `git diff` goes through textconv: whole elements, one line each.
    let g = repo.git(&["diff", "HEAD~1", "HEAD", "--", "support.json"]);
    let gd = text(&g.stdout);
    assert!(gd.contains("+node refund: {\"config\":{},\"type\":\"say\"}"), "{gd}");

    // A version that is not a document still shows (Git would stop the whole diff otherwise).
    repo.write("support.json", "{\"nodes\": [");
    let broken = trellis(repo.path(), &["diff", "--textconv", "support.json"]);
    assert_eq!(broken.status.code(), Some(0));
    assert!(
        text(&broken.stdout).starts_with("# trellis: not readable as a graph"),
        "{}",
        text(&broken.stdout)
    );

    // A revision that does not exist, a path that is not there: exit 2.
    for bad in ["nope:support.json", "HEAD:missing.json"] {
        let o = trellis(repo.path(), &["diff", bad, "support.json"]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(!text(&o.stderr).is_empty());
    }
}

#[test]
fn bad_inputs_exit_2_and_write_nothing() {
    let dir = tempfile::tempdir().expect("dir");
    let p = |n: &str| -> PathBuf { dir.path().join(n) };
    std::fs::write(p("a.json"), SUPPORT).expect("write");
    std::fs::write(p("bin.json"), b"{\"nodes\":[]}\0\x01").expect("write");
    std::fs::write(p("w.json"), SUPERVISOR).expect("write");
    let huge = std::fs::File::create(p("huge.json")).expect("create");
    huge.set_len(65 << 20).expect("sparse file");
    let s = |x: &str| p(x).to_string_lossy().into_owned();

    for (a, b, says) in [
        (s("a.json"), s("bin.json"), "binary"),
        (s("a.json"), s("w.json"), "Weaveflow"),
        (s("a.json"), s("huge.json"), "MiB"),
        (s("a.json"), s("none.json"), "cannot read"),
    ] {
        let o = trellis(dir.path(), &["diff", &a, &b]);
        assert_eq!(o.status.code(), Some(2), "{b}");
        assert!(text(&o.stderr).contains(says), "{b}: {}", text(&o.stderr));
        let m = trellis(dir.path(), &["merge", &s("a.json"), &s("a.json"), &b, "--path", "flow.json"]);
        assert_eq!(m.status.code(), Some(2), "merge with {b}");
    }
    // Nothing was written: OURS as it was, no report.
    assert_eq!(std::fs::read_to_string(p("a.json")).expect("read"), SUPPORT);
    assert!(!dir.path().join("flow.json.conflicts.json").exists());
}
