//! Opens (and saves) a generated document once through `trellis_doc::Session`, printing the CPU
//! time of each step, for profiling (`perf record -g target/.../examples/doc_once 10000`) and
//! for checking that open and save grow linearly with the document.
//! Usage: `doc_once [nodes] [repeats] [cold]` (default 10000, 1). `cold`: the open first, as in
//! the app (a fresh process whose first large work it is), without the parts alone before it.

use std::time::{Duration, Instant};

use trellis_bench::{app_registries, clock, write_document};
use trellis_doc::{save, DocId, RealFs, Session};

// What ships (the app and the CLI) runs on mimalloc; measure with the same allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// CPU time of this thread in ns (from /proc/thread-self/schedstat), or wall time where that
/// file is missing: on a loaded machine wall time measures the scheduler, not the code.
fn cpu_now() -> (Instant, Option<u64>) {
    let cpu = std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|n| n.parse().ok()));
    (Instant::now(), cpu)
}

fn ms(a: (Instant, Option<u64>), b: (Instant, Option<u64>)) -> (f64, f64) {
    let wall = (b.0 - a.0).as_secs_f64() * 1e3;
    let cpu = match (a.1, b.1) {
        (Some(x), Some(y)) => Duration::from_nanos(y.saturating_sub(x)).as_secs_f64() * 1e3,
        _ => wall,
    };
    (cpu, wall)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let nodes: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let repeats: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let cold = args.next().as_deref() == Some("cold");
    let dir = std::env::temp_dir().join(format!("trellis-doc-once-{}", std::process::id()));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("{}: {e}", dir.display());
        std::process::exit(2);
    }
    let path = match write_document(&dir, nodes, 42) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let registry = trellis_spec::builtin::default_registry();
    let compile_with = trellis_bench::compile_registry();
    for round in 0..repeats {
        if cold && round == 0 {
            open_and_save(&path, nodes);
            continue;
        }
        // The parts of an open, alone.
        let p0 = cpu_now();
        let parsed = trellis_spec::parse_spec(&text);
        let p1 = cpu_now();
        let Some(spec) = parsed.spec else { std::process::exit(1) };
        let diags = trellis_spec::validate(&spec, Some(&registry));
        let p2 = cpu_now();
        let compiled = trellis_spec::from_spec(&spec, &compile_with).and_then(|g| g.compile());
        let p3 = cpu_now();
        drop((diags, compiled, spec));
        let p4 = cpu_now();
        println!(
            "{nodes} nodes: parse {:.1} ms CPU | validate {:.1} | from_spec+compile {:.1} | drop {:.1}",
            ms(p0, p1).0,
            ms(p1, p2).0,
            ms(p2, p3).0,
            ms(p3, p4).0
        );
        open_and_save(&path, nodes);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Opens the file as the app does, builds its view as JSON, saves it; prints each step.
fn open_and_save(path: &std::path::Path, nodes: usize) {
    let t0 = cpu_now();
    let mut s = match Session::open(&RealFs, DocId(1), path, app_registries(), clock()) {
        Ok(s) => s,
        Err(d) => {
            eprintln!("{d:?}");
            std::process::exit(1);
        }
    };
    let t1 = cpu_now();
    // What the app then sends the page: the document's view, as JSON text.
    let v0 = t1;
    let view = trellis_doc::view::DocumentView::of(&s);
    let v1 = cpu_now();
    let text = serde_json::to_string(&view).unwrap_or_default();
    let v2 = cpu_now();
    drop(view);
    println!(
        "{nodes} nodes: view {:.1} ms CPU, as JSON {:.1} ms CPU ({:.1} MB)",
        ms(v0, v1).0,
        ms(v1, v2).0,
        text.len() as f64 / 1e6
    );
    let s0 = cpu_now();
    let saved = save::save(&RealFs, &mut s);
    let t2 = cpu_now();
    if let Err(r) = saved {
        eprintln!("{:?}", r.diagnostics);
        std::process::exit(1);
    }
    let (oc, ow) = ms(t0, t1);
    let (sc, sw) = ms(s0, t2);
    println!(
        "{nodes} nodes: open {oc:.1} ms CPU ({ow:.1} wall), save {sc:.1} ms CPU ({sw:.1} wall), {} diagnostics",
        s.diagnostics().len()
    );
}
