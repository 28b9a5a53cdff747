//! Tauri's build step. The app's commands are declared here, so each one gets an
//! `allow-<command>` permission and the webview may call only what
//! `capabilities/main-window.json` grants (a test checks that the two agree).
//! It also records the Git commit the app is built from (Help > About, `--version`, the log).
include!("src/command_names.rs");

use std::path::PathBuf;
use std::process::Command;

fn main() {
    embed_commit();
    let attributes =
        tauri_build::Attributes::new().app_manifest(tauri_build::AppManifest::new().commands(COMMANDS));
    if let Err(e) = tauri_build::try_build(attributes) {
        panic!("tauri build step failed: {e:#}");
    }
}

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
}

/// `TRELLIS_COMMIT`: `git rev-parse --short HEAD`, or `unknown` outside a Git checkout (a source
/// archive). Built again when HEAD moves (a commit, a checkout).
fn embed_commit() {
    let commit = git(&["rev-parse", "--short", "HEAD"]).unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=TRELLIS_COMMIT={commit}");
    let mut watched = vec![git(&["rev-parse", "--git-path", "HEAD"])];
    if let Some(branch) =
        git(&["rev-parse", "--symbolic-full-name", "HEAD"]).filter(|b| b.starts_with("refs/"))
    {
        watched.push(git(&["rev-parse", "--git-path", &branch]));
    }
    watched.push(git(&["rev-parse", "--git-path", "packed-refs"]));
    for path in watched.into_iter().flatten().map(PathBuf::from).filter(|p| p.exists()) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}
