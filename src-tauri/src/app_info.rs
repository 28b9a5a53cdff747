//! What this build of Trellis is and what it runs on: the facts Help > About shows, `trellis-app
//! --version` prints and the log file starts with (what a bug report needs). No document content.

use std::path::Path;

use serde::Serialize;
use ts_rs::TS;

/// The app's version (the workspace's).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// The Git commit this binary was built from (`git rev-parse --short HEAD` in build.rs), or
/// `unknown` when it was built outside a Git checkout.
pub const COMMIT: &str = env!("TRELLIS_COMMIT");
/// The licence (SPDX expression; the texts are LICENSE-MIT and LICENSE-APACHE).
pub const LICENSE: &str = env!("CARGO_PKG_LICENSE");

/// The line `trellis-app --version` prints.
pub fn version_line() -> String {
    format!("trellis-app {VERSION} (commit {COMMIT})")
}

/// A runtime whose published node types the built-in registry follows, and its version.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, TS)]
#[ts(export)]
pub struct RuntimeVersion {
    /// The runtime ("Ilmek").
    pub runtime: String,
    /// The package publishing the types ("@ilmek/mcp"), when there is one.
    pub package: Option<String>,
    /// The version followed: a package version or a commit.
    pub version: String,
}

/// The built-in registry's name and version, as its manifest says.
pub fn builtin_registry() -> String {
    let m = trellis_spec::builtin::manifest();
    match (&m.name, &m.version) {
        (Some(n), Some(v)) => format!("{n} {v}"),
        (Some(n), None) => n.clone(),
        (None, Some(v)) => format!("built-in {v}"),
        (None, None) => "built-in".to_string(),
    }
}

/// The runtimes the built-in types follow: each built-in type's `origin` where a runtime
/// publishes it (`{"kind": "runtime", "runtime", "package", "version"}`), each once. Read from
/// the types' serialized form, the registry's documented shape, so a built-in registry that
/// records no origin answers an empty list (About says so).
pub fn runtime_versions() -> Vec<RuntimeVersion> {
    let types: Vec<serde_json::Value> =
        trellis_spec::builtin::manifest().types.iter().filter_map(|t| serde_json::to_value(t).ok()).collect();
    runtimes_in(&types)
}

fn runtimes_in(types: &[serde_json::Value]) -> Vec<RuntimeVersion> {
    let mut out: Vec<RuntimeVersion> = types
        .iter()
        .filter_map(|t| t.get("origin"))
        .filter(|o| o.get("kind").and_then(|k| k.as_str()) == Some("runtime"))
        .filter_map(|o| {
            let text = |k: &str| o.get(k).and_then(|v| v.as_str()).map(str::to_string);
            Some(RuntimeVersion {
                runtime: text("runtime")?,
                package: text("package"),
                version: text("version")?,
            })
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The operating system: the distribution's name (`/etc/os-release`), the kernel and the
/// architecture, plus the desktop session when there is one (`Debian GNU/Linux 12 (bookworm),
/// Linux 6.1.0, x86_64, X11 GNOME`).
pub fn os() -> String {
    let distro = std::fs::read_to_string("/etc/os-release")
        .ok()
        .and_then(|t| os_release_name(&t))
        .unwrap_or_else(|| std::env::consts::OS.to_string());
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease").map(|k| k.trim().to_string()).ok();
    let mut parts = vec![distro];
    if let Some(k) = kernel {
        parts.push(format!("Linux {k}"));
    }
    parts.push(std::env::consts::ARCH.to_string());
    let session = ["XDG_SESSION_TYPE", "XDG_CURRENT_DESKTOP"]
        .iter()
        .filter_map(|k| std::env::var(k).ok().filter(|v| !v.is_empty()))
        .collect::<Vec<_>>()
        .join(" ");
    if !session.is_empty() {
        parts.push(session);
    }
    parts.join(", ")
}

/// `PRETTY_NAME` (or `NAME`) of an os-release file.
fn os_release_name(text: &str) -> Option<String> {
    let value = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key)?.strip_prefix('='))
            .map(|v| v.trim().trim_matches('"').to_string())
    };
    value("PRETTY_NAME").or_else(|| value("NAME")).filter(|v| !v.is_empty())
}

/// The WebKitGTK this process loaded: the version of the package that installed the library
/// (dpkg, else rpm), else the library's file name. WebKitGTK's own version call is C only, and
/// this app has no unsafe code. Runs the package tool, so call it off the start path.
pub fn webkitgtk() -> String {
    let Some(lib) = loaded_webkit_library() else { return "unknown (not loaded)".to_string() };
    package_version(&lib).unwrap_or_else(|| {
        format!("unknown ({})", lib.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default())
    })
}

/// The WebKitGTK library mapped into this process (`/proc/self/maps`).
fn loaded_webkit_library() -> Option<std::path::PathBuf> {
    let maps = std::fs::read_to_string("/proc/self/maps").ok()?;
    maps.lines()
        .filter_map(|l| l.split_whitespace().nth(5))
        .find(|p| p.contains("libwebkit2gtk-"))
        .map(std::path::PathBuf::from)
}

fn package_version(lib: &Path) -> Option<String> {
    let run = |program: &str, args: &[&str]| -> Option<String> {
        let out = std::process::Command::new(program).args(args).output().ok()?;
        let text = String::from_utf8(out.stdout).ok()?;
        (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
    };
    let path = lib.to_str()?;
    if let Some(owner) = run("dpkg-query", &["-S", path]) {
        // `libwebkit2gtk-4.1-0:amd64: /usr/lib/...`
        let package = owner.lines().next()?.rsplit_once(": ")?.0.to_string();
        return run("dpkg-query", &["-W", "-f", "${Version}", &package]);
    }
    run("rpm", &["-qf", "--queryformat", "%{VERSION}-%{RELEASE}", path])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_version_line_names_the_version_and_the_commit() {
        let line = version_line();
        assert!(line.starts_with(&format!("trellis-app {}", env!("CARGO_PKG_VERSION"))), "{line}");
        assert!(line.ends_with(&format!("(commit {COMMIT})")));
        // Built inside this Git checkout: a short hash, not the fallback.
        if std::process::Command::new("git")
            .args(["rev-parse", "HEAD"])
            .output()
            .is_ok_and(|o| o.status.success())
        {
            assert!(COMMIT.len() >= 7 && COMMIT.chars().all(|c| c.is_ascii_hexdigit()), "{COMMIT}");
        }
    }

    #[test]
    fn the_licence_is_the_workspaces() {
        assert_eq!(LICENSE, "MIT OR Apache-2.0");
    }

    #[test]
    fn os_release_gives_the_pretty_name() {
        let text = "NAME=\"Debian GNU/Linux\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nID=debian\n";
        assert_eq!(os_release_name(text).as_deref(), Some("Debian GNU/Linux 12 (bookworm)"));
        assert_eq!(os_release_name("NAME=Fedora\n").as_deref(), Some("Fedora"));
        assert_eq!(os_release_name("ID=x\n"), None);
        assert!(os().contains(std::env::consts::ARCH));
    }

    #[test]
    fn runtime_versions_are_read_from_the_types_origins_each_once() {
        let types: Vec<serde_json::Value> = serde_json::from_str(
            r#"[
                {"type": "mcp_tool", "origin": {"kind": "runtime", "runtime": "Ilmek", "package": "@ilmek/mcp", "version": "0.2.0"}},
                {"type": "mcp_resource", "origin": {"kind": "runtime", "runtime": "Ilmek", "package": "@ilmek/mcp", "version": "0.2.0"}},
                {"type": "a2a_call", "origin": {"kind": "runtime", "runtime": "Ilmek", "package": "@ilmek/a2a", "version": "0.2.0"}},
                {"type": "agent", "origin": {"kind": "runtime", "runtime": "Weaveflow", "version": "0ad04ab"}},
                {"type": "llm", "origin": {"kind": "example"}},
                {"type": "mine"}
            ]"#,
        )
        .expect("json");
        let got = runtimes_in(&types);
        let pkg = |p: &str| Some(p.to_string());
        assert_eq!(
            got,
            vec![
                RuntimeVersion {
                    runtime: "Ilmek".into(),
                    package: pkg("@ilmek/a2a"),
                    version: "0.2.0".into()
                },
                RuntimeVersion {
                    runtime: "Ilmek".into(),
                    package: pkg("@ilmek/mcp"),
                    version: "0.2.0".into()
                },
                RuntimeVersion { runtime: "Weaveflow".into(), package: None, version: "0ad04ab".into() },
            ]
        );
        // Whatever this build's built-in registry records, each runtime version once.
        let now = runtime_versions();
        let mut unique = now.clone();
        unique.dedup();
        assert_eq!(now, unique);
    }

    #[test]
    fn the_builtin_registry_is_named_as_its_manifest_says() {
        let m = trellis_spec::builtin::manifest();
        let want = match (m.name.as_deref(), m.version.as_deref()) {
            (Some(n), Some(v)) => format!("{n} {v}"),
            (Some(n), None) => n.to_owned(),
            (None, _) => panic!("the built-in manifest has a name"),
        };
        assert_eq!(builtin_registry(), want);
    }
}
