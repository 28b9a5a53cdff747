//! `trellis convert --to graphspec|weaveflow|graphmd [--allow-loss] IN [-o OUT]`.
//!
//! The format of IN is detected from its content (`load.rs`). Conversions go through GraphSpec:
//! Weaveflow and GRAPH.md convert to and from it (`trellis_formats::convert`), so Weaveflow ->
//! GRAPH.md is two steps and reports the losses of both.
//!
//! A conversion that loses something prints what (element by element, as warnings) and exits 1
//! without writing, unless `--allow-loss` is given; then the losses are still printed (on
//! stderr) and the output is written. A source that does not read cleanly (syntax errors,
//! unknown fields, wrong types) is refused: converting it would drop what could not be read.
//! The output goes to stdout, or with `-o` to a temporary file in OUT's folder that then
//! replaces OUT (a crash never leaves half a file).

use std::path::PathBuf;

use trellis_formats::convert::{self, Loss};
use trellis_formats::weaveflow;
use trellis_spec::diagnostic::has_errors;
use trellis_spec::writer::to_canonical_string;
use trellis_spec::{json, Diagnostic, GraphSpec};

use crate::load::{self, write_atomically, Document, Format, Source};
use crate::report::{self, codes, Exit, FileReport, OutputFormat};
use crate::source_text::SourceText;

/// Codes of `trellis convert` (listed in `docs/diagnostics.md`).
pub mod convert_codes {
    /// The conversion was not done: it would lose something (without `--allow-loss`), or the
    /// source does not read cleanly.
    pub const NOT_CONVERTED: &str = "cli/not-converted";
}

/// The target format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Target {
    Graphspec,
    Weaveflow,
    Graphmd,
}

impl Target {
    fn format(self) -> Format {
        match self {
            Target::Graphspec => Format::GraphSpec,
            Target::Weaveflow => Format::Weaveflow,
            Target::Graphmd => Format::GraphMd,
        }
    }
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The format to write.
    #[arg(long, value_enum)]
    pub to: Target,
    /// Convert even when something cannot be represented in the target (it is listed).
    #[arg(long)]
    pub allow_loss: bool,
    /// The Weaveflow `version` to write when converting to Weaveflow.
    #[arg(long, value_name = "VERSION", default_value = weaveflow::DEFAULT_VERSION)]
    pub weaveflow_version: String,
    /// The document to convert (`-` reads standard input).
    #[arg(value_name = "IN")]
    pub input: PathBuf,
    /// Where to write (default: stdout).
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: Option<PathBuf>,
}

/// Losses of one step, with the text their pointers refer to (when there is one).
struct Step {
    label: String,
    text: Option<SourceText>,
    losses: Vec<Loss>,
}

pub fn run(args: Args) -> Exit {
    match convert_one(&args) {
        Ok(exit) => exit,
        Err((reports, exit)) => {
            report::print(&reports, OutputFormat::Human, true);
            exit
        }
    }
}

type Failed = (Vec<FileReport>, Exit);

fn refuse(source: &Source, diagnostics: Vec<Diagnostic>) -> Failed {
    (vec![FileReport::new(source.display.clone(), Some(source.text.clone()), diagnostics)], Exit::Problems)
}

fn usage(source: &Source, message: String) -> Failed {
    let d = Diagnostic::error(codes::WRONG_FORMAT, message);
    (vec![FileReport::new(source.display.clone(), None, vec![d])], Exit::Usage)
}

fn convert_one(args: &Args) -> Result<Exit, Failed> {
    let (source, doc) = load::load(&args.input).map_err(|f| (vec![f.report], f.exit))?;
    let from = doc.format();
    if from == args.to.format() {
        return Err(usage(
            &source,
            format!("{} is already a {from} document; use `trellis fmt` to rewrite it", source.display),
        ));
    }

    let mut steps = Vec::new();
    // Step 1: to GraphSpec.
    let spec: GraphSpec = match doc {
        Document::GraphSpec(parsed) => {
            let (spec, diagnostics) =
                load::require_spec(&source, parsed).map_err(|f| (vec![f.report], f.exit))?;
            refuse_unclean(&source, diagnostics)?;
            spec
        }
        Document::Weaveflow(parsed) => {
            let Some(doc) = parsed.doc.filter(|_| !has_errors(&parsed.diagnostics)) else {
                return Err(refuse(&source, not_clean(parsed.diagnostics)));
            };
            let c = convert::to_graphspec(&doc);
            steps.push(Step {
                label: source.display.clone(),
                text: Some(source.text.clone()),
                losses: c.losses,
            });
            c.output
        }
        Document::GraphMd(mut read) => {
            // GRAPH.md needs no registry: a document its own rules refuse is not converted.
            if let Some(doc) = &read.doc {
                read.diagnostics.extend(trellis_formats::graphmd::validate(doc));
            }
            let Some(doc) = read.doc.filter(|_| !has_errors(&read.diagnostics)) else {
                return Err(refuse(&source, not_clean(read.diagnostics)));
            };
            let c = convert::graphmd::to_graphspec(&doc);
            // GRAPH.md pointers are into the front matter, not JSON text: no source lines.
            steps.push(Step { label: source.display.clone(), text: None, losses: c.losses });
            c.output
        }
    };

    // Step 2: from GraphSpec to the target.
    let intermediate =
        if from == Format::GraphSpec { source.display.clone() } else { "<intermediate GraphSpec>".into() };
    let intermediate_text = (from == Format::GraphSpec).then(|| source.text.clone());
    let output = match args.to {
        Target::Graphspec => to_canonical_string(&spec),
        Target::Weaveflow => {
            let options = convert::FromGraphSpecOptions { version: args.weaveflow_version.trim().to_owned() };
            let c = convert::from_graphspec_with(&spec, &options);
            steps.push(Step { label: intermediate, text: intermediate_text, losses: c.losses });
            weaveflow::to_string(&c.output)
        }
        Target::Graphmd => {
            let c = convert::graphmd::from_graphspec(&spec);
            steps.push(Step { label: intermediate, text: intermediate_text, losses: c.losses });
            trellis_formats::graphmd::to_canonical_string(&c.output)
        }
    };

    let lossy = steps.iter().any(|s| !s.losses.is_empty());
    let mut reports: Vec<FileReport> =
        steps.into_iter().filter(|s| !s.losses.is_empty()).map(loss_report).collect();
    if lossy && !args.allow_loss {
        let n: usize = reports.iter().map(|r| r.diagnostics.len()).sum();
        let refusal = Diagnostic::error(
            convert_codes::NOT_CONVERTED,
            format!(
                "not converted: a {} cannot hold the {n} thing(s) listed above; pass --allow-loss to convert anyway",
                match args.to {
                    Target::Graphspec => "GraphSpec",
                    Target::Weaveflow => "Weaveflow Graph Definition",
                    Target::Graphmd => "GRAPH.md document",
                }
            ),
        );
        reports.push(FileReport::new(source.display.clone(), None, vec![refusal]));
        return Err((reports, Exit::Problems));
    }
    if lossy {
        report::print(&reports, OutputFormat::Human, true);
    }
    match &args.output {
        None => report::write_stdout(&output),
        Some(path) => write_atomically(path, &output).map_err(|message| {
            let d = Diagnostic::error(codes::WRITE_FAILED, message);
            (vec![FileReport::new(path.display().to_string(), None, vec![d])], Exit::Usage)
        })?,
    }
    Ok(Exit::Clean)
}

/// A GraphSpec source with reading errors (or unknown fields, which the conversion would
/// drop) is refused.
fn refuse_unclean(source: &Source, diagnostics: Vec<Diagnostic>) -> Result<(), Failed> {
    let blocking: Vec<Diagnostic> = diagnostics
        .into_iter()
        .filter(|d| d.is_error() || d.code == trellis_spec::read::codes::UNKNOWN_FIELD)
        .collect();
    if blocking.is_empty() {
        return Ok(());
    }
    Err(refuse(source, not_clean(blocking)))
}

fn not_clean(mut diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    diagnostics.push(Diagnostic::error(
        convert_codes::NOT_CONVERTED,
        "not converted: the document does not read cleanly, and what could not be read would be dropped; fix the problems above first",
    ));
    diagnostics
}

fn loss_report(step: Step) -> FileReport {
    let mut diagnostics: Vec<Diagnostic> = step.losses.iter().map(Loss::to_diagnostic).collect();
    if let Some(text) = &step.text {
        json::fill_spans(text, &mut diagnostics);
    }
    FileReport::new(step.label, step.text, diagnostics)
}
