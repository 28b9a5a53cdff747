//! `trellis`: the command line of Trellis. One file per command under `commands/`; they share
//! file loading (`load.rs`, the one place that knows the formats), registries (`registries.rs`)
//! and diagnostic printing (`report.rs`).
//!
//! Exit codes: 0 clean, 1 the input has errors (or would change, with `--check`), 2 a usage or
//! I/O error (clap's own usage errors exit 2 as well).

// Denied, not forbidden: `source_text` maps large input files, the one exception.
#![deny(unsafe_code)]

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod commands;
mod git;
mod hints;
mod load;
mod project_registry;
mod registries;
mod report;
// The one place that may use unsafe code: a large input file is mapped rather than read (the
// module says why); the crate denies it everywhere else.
#[allow(unsafe_code)]
mod source_text;

// The allocator: a document is a tree of many small allocations, which mimalloc serves
// much faster than glibc malloc.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Design, check and convert agent-workflow graphs stored as data.
#[derive(Debug, Parser)]
#[command(name = "trellis", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Check documents and print every problem found.
    Validate(commands::validate::Args),
    /// Rewrite documents in canonical form (only those that change).
    Fmt(commands::fmt::Args),
    /// Convert between GraphSpec and Weaveflow.
    Convert(commands::convert::Args),
    /// Print a document as a Mermaid flowchart.
    Mermaid(commands::mermaid::Args),
    /// Run a document's routing with mocked nodes and print the trace.
    Simulate(commands::simulate::Args),
    /// Show, compare and aggregate recorded runs (Ilmek, Weaveflow, OTLP, LangSmith, run logs).
    Runs(commands::runs::Args),
    /// List the paths through a GRAPH.md document.
    Paths(commands::paths::Args),
    /// Print the JSON Schema of the GraphSpec document.
    Schema(commands::schema::Args),
    /// List, show and infer the node types of the registry.
    Registry(commands::registry::Args),
    /// Show what changed between two documents (files or REV:PATH), element by element.
    Diff(commands::diff::Args),
    /// Merge three versions of a document by element id (Git's merge driver).
    Merge(commands::merge::Args),
    /// Make Git diff and merge this repository's graph documents with trellis.
    GitSetup(commands::git_setup::Args),
}

/// Stack for the thread that does the work. Documents can be deep (100,000-node chains), and
/// a graph algorithm that recurses per node must not take the process down with them.
const WORK_STACK: usize = 1 << 30;

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Only address space is reserved; pages are touched as they are used.
    let worker = std::thread::Builder::new()
        .name("trellis".into())
        .stack_size(WORK_STACK)
        .spawn(move || dispatch(cli));
    match worker.map(std::thread::JoinHandle::join) {
        Ok(Ok(exit)) => exit.into(),
        Ok(Err(_)) => ExitCode::from(101),
        Err(e) => {
            report::note(&format!("cannot start: {e}"));
            ExitCode::from(2)
        }
    }
}

fn dispatch(cli: Cli) -> report::Exit {
    match cli.command {
        Command::Validate(args) => commands::validate::run(args),
        Command::Fmt(args) => commands::fmt::run(args),
        Command::Convert(args) => commands::convert::run(args),
        Command::Mermaid(args) => commands::mermaid::run(args),
        Command::Simulate(args) => commands::simulate::run(args),
        Command::Runs(args) => commands::runs::run(args),
        Command::Paths(args) => commands::paths::run(args),
        Command::Schema(args) => commands::schema::run(args),
        Command::Registry(args) => commands::registry::run(args),
        Command::Diff(args) => commands::diff::run(args),
        Command::Merge(args) => commands::merge::run(args),
        Command::GitSetup(args) => commands::git_setup::run(args),
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn the_command_line_definition_is_consistent() {
        super::Cli::command().debug_assert();
    }
}
