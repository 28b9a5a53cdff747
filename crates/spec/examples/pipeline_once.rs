//! Runs the core pipeline once on a generated document and prints the time per stage, for
//! profiling and for peak memory: `/usr/bin/time -v target/release/examples/pipeline_once 100000`
//! (or a file path: `--example gen_spec 100000 > big.json`, then `pipeline_once big.json`).

use std::time::{Duration, Instant};

use trellis_spec::generate::generate_text;
use trellis_spec::pipeline::generated_registry;
use trellis_spec::{from_spec_validated, parse_spec, to_canonical_string, validate};

// What ships (the app and the CLI) runs on mimalloc; measure with the same allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// CPU time of this thread (from /proc/self/schedstat, in ns): on a loaded machine wall time
/// measures the scheduler, not the code. Falls back to wall time where that file is missing.
#[derive(Clone, Copy)]
struct Clock(Instant, Option<u64>);

fn now() -> Clock {
    let cpu = std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|n| n.parse().ok()));
    Clock(Instant::now(), cpu)
}

fn ms(a: Clock, b: Clock) -> f64 {
    match (a.1, b.1) {
        (Some(x), Some(y)) => Duration::from_nanos(y.saturating_sub(x)).as_secs_f64() * 1e3,
        _ => (b.0 - a.0).as_secs_f64() * 1e3,
    }
}

/// Resident and peak memory of this process so far, in MB (from /proc/self/status).
fn memory() -> String {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<u64>().ok())
            .map_or(0, |kb| kb / 1024)
    };
    format!("rss {} MB, peak {} MB", field("VmRSS:"), field("VmHWM:"))
}

fn main() {
    // A number generates a document of that many nodes; anything else is a file to read (so
    // that peak memory measures the pipeline, not the generator).
    let arg = std::env::args().nth(1).unwrap_or_else(|| "10000".into());
    let (nodes, text) = match arg.parse::<usize>() {
        Ok(n) => (n, generate_text(n, 42)),
        Err(_) => match std::fs::read_to_string(&arg) {
            Ok(t) => (0, t),
            Err(e) => {
                eprintln!("{arg}: {e}");
                std::process::exit(2);
            }
        },
    };
    let registry = generated_registry();
    if std::env::var_os("SHOW_MEMORY").is_some() {
        eprintln!("text read: {}", memory());
    }
    let t0 = now();
    let parsed = parse_spec(&text);
    let t1 = now();
    let Some(spec) = parsed.spec else {
        eprintln!("not a document: {:?}", parsed.diagnostics);
        std::process::exit(1);
    };
    if std::env::var_os("SHOW_MEMORY").is_some() {
        eprintln!("parsed: {}", memory());
    }
    let diags = validate(&spec, Some(&registry));
    if std::env::var_os("SHOW_MEMORY").is_some() {
        eprintln!("validated: {}", memory());
    }
    let t2 = now();
    if trellis_spec::diagnostic::has_errors(&diags) {
        eprintln!("the document has errors: {diags:?}");
        std::process::exit(1);
    }
    // As `pipeline::round_trip`: validation ran the fromSpec checks, so they are not run again.
    let graph = match from_spec_validated(spec, &registry) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e:?}");
            std::process::exit(1);
        }
    };
    let t3 = now();
    let Ok(compiled) = graph.compile() else { std::process::exit(1) };
    let t4 = now();
    let Ok(back) = compiled.into_spec() else { std::process::exit(1) };
    let t5 = now();
    if std::env::var_os("SHOW_MEMORY").is_some() {
        eprintln!("to_spec: {}", memory());
    }
    let out = to_canonical_string(&back);
    if std::env::var_os("SHOW_MEMORY").is_some() {
        eprintln!("written: {}", memory());
    }
    let t6 = now();
    println!(
        "{nodes} nodes, {:.1} MB, {} diagnostics, same text: {}",
        text.len() as f64 / 1e6,
        diags.len(),
        out == text
    );
    println!(
        "parse {:.1} ms | validate {:.1} | from_spec {:.1} | compile {:.1} | to_spec {:.1} | write {:.1} | total {:.1} ms",
        ms(t0, t1),
        ms(t1, t2),
        ms(t2, t3),
        ms(t3, t4),
        ms(t4, t5),
        ms(t5, t6),
        ms(t0, t6)
    );
}
