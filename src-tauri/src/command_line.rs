//! The app's own command-line flags, answered before anything starts (no window, no display
//! needed): `--version` and `--help`. Every other argument that is not a flag is a file to open
//! ([`paths_from_args`]).

use std::path::PathBuf;

use crate::app_info;

/// The files named on the command line (anything not starting with `-`).
pub(crate) fn paths_from_args(args: impl Iterator<Item = String>) -> Vec<PathBuf> {
    args.filter(|a| !a.starts_with('-')).map(PathBuf::from).collect()
}

/// What to print and exit with, when the arguments ask for it rather than for the app.
pub fn answer_without_window(args: &[String]) -> Option<String> {
    if args.iter().any(|a| a == "--version" || a == "-V") {
        return Some(app_info::version_line());
    }
    if args.iter().any(|a| a == "--help" || a == "-h") {
        return Some(help());
    }
    None
}

fn help() -> String {
    format!(
        "Trellis {}: design agent-workflow graphs as data.\n\n\
         Usage: trellis-app [FILE]...\n\n\
         Opens each FILE in a tab: GraphSpec or Weaveflow JSON, GRAPH.md, or a folder holding a\n\
         GRAPH.md. While Trellis runs, starting it again opens the files in the running window.\n\n\
         \x20 -h, --help     print this help and exit\n\
         \x20 -V, --version  print the version and exit\n\n\
         The command line tool for validating, formatting and converting is `trellis`.\n",
        app_info::VERSION
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_arguments_are_the_non_flags() {
        let got = paths_from_args(["a.json", "--verbose", "dir/GRAPH.md"].into_iter().map(String::from));
        assert_eq!(got, vec![PathBuf::from("a.json"), PathBuf::from("dir/GRAPH.md")]);
    }

    fn args(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn version_and_help_are_answered_and_files_are_not() {
        assert_eq!(answer_without_window(&args(&["--version"])), Some(app_info::version_line()));
        assert_eq!(answer_without_window(&args(&["a.json", "-V"])), Some(app_info::version_line()));
        assert!(answer_without_window(&args(&["--help"])).is_some_and(|h| h.contains("Usage: trellis-app")));
        assert_eq!(answer_without_window(&args(&["a.json", "GRAPH.md"])), None);
        assert_eq!(answer_without_window(&[]), None);
    }
}
