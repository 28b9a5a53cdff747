//! `trellis paths FILE [--prices FILE] [--format json]`: the path analysis of a
//! GRAPH.md document (`trellis_formats::graphmd::paths`), deterministic and without any
//! model call.
//!
//! Exit codes: 0 every path within budget, 1 a path over budget or the document has errors,
//! 2 a file could not be read, is not a GRAPH.md, or the price table is invalid.
//!
//! `--format json` prints one document: `{"path", "diagnostics": [...], "analysis": {...}}`
//! where `analysis` is `trellis_formats::graphmd::paths::Analysis` serialized (null when the
//! document could not be analysed).

use std::fmt::Write as _;
use std::path::PathBuf;

use trellis_formats::graphmd::{self, paths};

use crate::load;
use crate::report::{self, Exit, FileReport, OutputFormat};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The GRAPH.md document.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// A price table for cost estimates: {"models": {"<model_key>": {"input_per_mtok": N,
    /// "output_per_mtok": N}}} in USD per million tokens. Without one, cost is unknown.
    #[arg(long, value_name = "FILE")]
    pub prices: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    pub format: OutputFormat,
}

pub fn run(args: Args) -> Exit {
    let source = match load::read_source(&args.file) {
        Ok(s) => s,
        Err(f) => {
            report::print(&[f.report], args.format, args.format == OutputFormat::Human);
            return f.exit.max(Exit::Usage);
        }
    };
    let prices = match &args.prices {
        None => None,
        Some(p) => match load::read_source(p) {
            Err(f) => {
                report::print(&[f.report], args.format, args.format == OutputFormat::Human);
                return Exit::Usage;
            }
            Ok(ps) => match paths::PriceTable::parse(&ps.text) {
                Ok(t) => Some(t),
                Err(diags) => {
                    report::print(
                        &[FileReport::new(ps.display, Some(ps.text), diags)],
                        args.format,
                        args.format == OutputFormat::Human,
                    );
                    return Exit::Usage;
                }
            },
        },
    };
    let name_says = graphmd::is_graphmd_name(&source.display);
    if !name_says && !source.text.trim_start_matches('\u{feff}').starts_with("---") {
        report::note(&format!(
            "{}: not a GRAPH.md document (no `---` front matter); `paths` analyses GRAPH.md files only",
            source.display
        ));
        return Exit::Usage;
    }
    let read = graphmd::read_and_validate(&source.text);
    let diagnostics = read.diagnostics;
    let analysis = read.doc.as_ref().map(|doc| {
        let (t, _) = graphmd::check(doc);
        let a = paths::analyse(&t, &diagnostics, prices.as_ref());
        (t, a)
    });
    let file_report = FileReport::new(source.display.clone(), Some(source.text.clone()), diagnostics.clone());
    let exit = match &analysis {
        Some((_, a)) if a.diagnostics.iter().any(|d| d.code == paths::codes::TOO_LARGE_TO_ANALYSE) => {
            Exit::Problems
        }
        Some((_, a)) if a.has_over_budget() => Exit::Problems,
        _ if file_report.has_errors() => Exit::Problems,
        _ => Exit::Clean,
    };
    match args.format {
        OutputFormat::Json => {
            let diags: serde_json::Value =
                serde_json::from_str(&report::json(std::slice::from_ref(&file_report))).unwrap_or_default();
            let doc = serde_json::json!({
                "path": source.display,
                "diagnostics": diags["files"][0]["diagnostics"],
                "analysis": analysis.as_ref().map(|(_, a)| a),
            });
            report::write_stdout(&format!("{}\n", serde_json::to_string_pretty(&doc).unwrap_or_default()));
        }
        OutputFormat::Human => {
            if !file_report.diagnostics.is_empty() {
                report::print(std::slice::from_ref(&file_report), OutputFormat::Human, true);
            }
            if let Some((t, a)) = &analysis {
                report::write_stdout(&human(&source.display, t, a));
                for d in &a.diagnostics {
                    report::note(&format!(
                        "{}: {} {}: {}",
                        source.display,
                        d.severity.as_str(),
                        d.code,
                        d.message
                    ));
                }
            }
        }
    }
    exit
}

fn money(c: Option<f64>) -> String {
    c.map_or_else(|| "unknown".to_owned(), |c| format!("${c:.6}"))
}

/// The human form: a header, one line per path, the worst path, the paths over budget.
fn human(file: &str, t: &graphmd::Topology, a: &paths::Analysis) -> String {
    let mut o = String::new();
    let budget = match (a.budget.tokens, a.budget.cost_usd) {
        (None, None) => "no path_budget".to_owned(),
        (tk, c) => {
            let mut parts = Vec::new();
            if let Some(tk) = tk {
                parts.push(format!("{tk} tokens"));
            }
            if let Some(c) = c {
                parts.push(format!("${c}"));
            }
            format!("budget {}", parts.join(", "))
        }
    };
    let name = t.name.as_deref().unwrap_or(file);
    let _ = writeln!(
        o,
        "{name}: {} path{} from `{}` ({budget})",
        a.path_count,
        if a.path_count == 1 { "" } else { "s" },
        t.entry.as_deref().unwrap_or("?")
    );
    if a.mode == paths::Mode::Summary {
        let _ = writeln!(o, "too many paths to list; the worst ones:");
    }
    for (i, p) in a.paths.iter().enumerate() {
        let flag = if p.over_budget.is_empty() {
            String::new()
        } else {
            format!("  OVER BUDGET ({})", p.over_budget.join(", "))
        };
        let top = p.top_node.as_ref().map_or(String::new(), |c| format!("  most: {}", c.node));
        let _ = writeln!(
            o,
            "  #{:<3} {:>8} tokens  {:>12}  {:>8} ms  -> {}{top}{flag}",
            i + 1,
            p.tokens,
            money(p.cost_usd),
            p.latency_ms,
            p.exit
        );
        let _ = writeln!(o, "        {}", p.nodes.join(" -> "));
    }
    if let Some(w) = a.worst {
        let p = &a.paths[w];
        let _ = writeln!(
            o,
            "worst: #{} ({} tokens, {}, {} ms)",
            w + 1,
            p.tokens,
            money(p.cost_usd),
            p.latency_ms
        );
    }
    if a.over_budget.is_empty() {
        let _ = writeln!(o, "over budget: none");
    } else {
        let list: Vec<String> = a.over_budget.iter().map(|i| format!("#{}", i + 1)).collect();
        let _ = writeln!(o, "over budget: {}", list.join(", "));
    }
    for n in &a.notes {
        let _ = writeln!(o, "note: {n}");
    }
    o
}
