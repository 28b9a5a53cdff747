//! Finding the built packages and running the tools that look at them.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The one `.deb` or `.rpm` `npm run package` wrote (`target/release/bundle/<kind>/`).
pub fn built_package(kind: &str) -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| crate::harness::repo_root().join("target"), PathBuf::from);
    let dir = target.join("release").join("bundle").join(kind);
    let found: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| d.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == kind)).collect())
        .unwrap_or_default();
    assert_eq!(
        found.len(),
        1,
        "one .{kind} in {} (build the packages first: `npm run package`), found {found:?}",
        dir.display()
    );
    found.into_iter().next().unwrap_or_default()
}

/// A command's standard output when it succeeds.
pub fn run(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// A command's standard output; it must succeed.
pub fn run_ok(program: &str, args: &[&str]) -> String {
    let out = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{program} could not start: {e} (scripts/setup.sh installs it)"));
    assert!(
        out.status.success(),
        "{program} {args:?} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The commit the packages were built from, as `git rev-parse --short HEAD` says now
/// (`unknown` outside Git, as the app's build step says).
pub fn commit() -> String {
    let repo = crate::harness::repo_root();
    Command::new("git")
        .arg("-C")
        .arg(&repo)
        .args(["rev-parse", "--short", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".to_string())
}

/// The size of a file in bytes.
pub fn size(path: &Path) -> u64 {
    std::fs::metadata(path).map(|m| m.len()).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}
