//! `trellis schema [--registry]`
//!
//! Prints the JSON Schema of the GraphSpec document, generated from the Rust types.
//! `--registry` (registry helper) prints the schema of a registry manifest instead.

use crate::report::{self, Exit};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print the schema of a registry manifest instead.
    #[arg(long)]
    pub registry: bool,
}

pub fn run(args: Args) -> Exit {
    if args.registry {
        // Generated from the Rust types of the manifest format (registry helper).
        let schema = trellis_spec::manifest::manifest_json_schema();
        let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
        text.push('\n');
        report::write_stdout(&text);
        return Exit::Clean;
    }
    let mut text = trellis_spec::schema::graph_spec_schema_string();
    if !text.ends_with('\n') {
        text.push('\n');
    }
    report::write_stdout(&text);
    Exit::Clean
}
