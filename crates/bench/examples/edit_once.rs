//! Times the Rust half of "edit to screen" (issue 13) on a user's file (`write_real_file`: own
//! types, a project registry, no sidecar): the answer to a
//! Delete, its undo and a config field typed in the inspector, each as `Session::answer` and
//! as the JSON text that crosses IPC. For profiling (`perf record -g .../edit_once 100000`).
//! Usage: `edit_once [nodes] [repeats]` (default 10000, 5).

use std::time::Instant;

use trellis_bench::{clock, write_real_file};
use trellis_doc::{Change, DocId, Edit, RealFs, Session};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn timed<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let t0 = Instant::now();
    let out = f();
    print!("{what} {:.2} ms  ", t0.elapsed().as_secs_f64() * 1e3);
    out
}

fn main() {
    let mut args = std::env::args().skip(1);
    let nodes: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let repeats: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let dir = std::env::temp_dir().join(format!("trellis-edit-once-{}", std::process::id()));
    let path = std::fs::create_dir_all(&dir).and_then(|()| write_real_file(&dir, nodes, 42));
    let path = path.unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    // As the app opens a user's file: its project registry found beside it, laid out on open.
    let registries = (trellis_doc::discovery::registry_loader())(&RealFs, Some(&path));
    let mut s = Session::open(&RealFs, DocId(1), &path, registries, clock()).unwrap_or_else(|d| {
        eprintln!("{d:?}");
        std::process::exit(1)
    });
    s.lay_out_if_missing();
    let delete = Edit::RemoveNodes { ids: vec!["n3".to_owned()] };
    for k in 0..repeats {
        let config = Edit::SetConfigField {
            id: "n0".to_owned(),
            path: "/max_tokens".to_owned(),
            value: Some(serde_json::json!(1000 + k)),
        };
        for (name, change) in
            [("delete", Change::Edit(&delete)), ("undo", Change::Undo), ("config", Change::Edit(&config))]
        {
            let d = timed(name, || s.answer(change));
            let Ok(d) = d else {
                eprintln!("{name} refused: {d:?}");
                std::process::exit(1)
            };
            let text = timed("json", || serde_json::to_string(&d).unwrap_or_default());
            print!("({} bytes)  ", text.len());
        }
        if let Some(spec) = s.spec() {
            let registry = &s.registries().registry;
            let t0 = Instant::now();
            let found = trellis_spec::validate(spec, Some(registry)).len();
            let all = t0.elapsed().as_secs_f64() * 1e3;
            let t0 = Instant::now();
            let configs = trellis_spec::config_check::check_configs(spec, registry).len();
            let cfg = t0.elapsed().as_secs_f64() * 1e3;
            // The stages one by one (`validate` runs the analysis beside the rest).
            let t0 = Instant::now();
            let analysis = trellis_spec::analysis::analyze(spec).len();
            let an = t0.elapsed().as_secs_f64() * 1e3;
            let t0 = Instant::now();
            let (nodes, ids) = trellis_spec::checks::check_nodes_keeping_ids(spec, Some(registry));
            let topology = trellis_spec::checks::check_topology(
                &ids,
                spec.edges.iter().map(|e| (e.from.as_str(), e.to.as_str())),
                std::iter::empty(),
            );
            let checks = nodes.len() + topology.len();
            let ch = t0.elapsed().as_secs_f64() * 1e3;
            print!(
                "| validate {all:.2} ms ({found} findings); alone: config checks {cfg:.2} ms ({configs}), \
                 analysis {an:.2} ms ({analysis}), node and topology checks {ch:.2} ms ({checks})"
            );
        }
        // The recovery journal's entry of this unsaved work: taken holding the workspace,
        // written without it (`Workspace::journal_due`).
        let t0 = Instant::now();
        let entry = trellis_doc::journal::Journal::entry_of("edit-once", &s, 0);
        let take = t0.elapsed().as_secs_f64() * 1e3;
        let journal = trellis_doc::journal::Journal::new(std::sync::Arc::new(RealFs), &dir);
        let t0 = Instant::now();
        let written = journal.write_entry(&entry);
        let write = t0.elapsed().as_secs_f64() * 1e3;
        print!(" | journal entry: taken {take:.1} ms, written {write:.1} ms ({written:?})");
        println!();
    }
    let _ = std::fs::remove_dir_all(&dir);
}
