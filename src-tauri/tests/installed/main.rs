//! The packages `npm run package` builds, checked as a user meets them: what each package holds
//! (`contents.rs`, no installing), and the `.deb` installed on this machine, used, and removed
//! again (below). Build the packages first (`npm run package`; `scripts/test.sh` does it before
//! this runs). The install test needs root (it runs `dpkg`): without root it fails and says so.
//!
//! The installed app runs as a user with a fresh home folder (so its settings, recent files and
//! log go where an installed app's go, `~/.config/dev.trellis.desktop` and
//! `~/.local/share/dev.trellis.desktop`) and a D-Bus session bus of its own (a second start finds
//! the first through it), driven through tauri-driver like every end-to-end test.

mod bus;
mod contents;
#[allow(dead_code)]
#[path = "../e2e/harness.rs"]
mod harness;
mod packages;
mod use_app;

use std::path::{Path, PathBuf};
use std::process::Command;

use packages::{built_package, run, run_ok};

/// What the package installs that this test looks at.
const APP: &str = "/usr/bin/trellis-app";
const CLI: &str = "/usr/bin/trellis";
const DESKTOP: &str = "/usr/share/applications/Trellis.desktop";
const MIME_XML: &str = "/usr/share/mime/packages/trellis.xml";
const MIME_CACHE: &str = "/usr/share/applications/mimeinfo.cache";

/// The package installed with dpkg; removed when dropped if a step failed before the test
/// removed it, so a failed run leaves the machine as it was.
struct Installed {
    name: String,
}

impl Installed {
    fn install(deb: &Path) -> Installed {
        let name = run_ok("dpkg-deb", &["--field", &deb.to_string_lossy(), "Package"]).trim().to_string();
        let out = Command::new("dpkg")
            .args(["--install", &deb.to_string_lossy()])
            .env("DEBIAN_FRONTEND", "noninteractive")
            .output()
            .expect("dpkg");
        assert!(
            out.status.success(),
            "dpkg --install {} failed:\n{}{}",
            deb.display(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        Installed { name }
    }

    fn is_installed(name: &str) -> bool {
        run("dpkg-query", &["--show", "--showformat=${Status}", name])
            .is_some_and(|s| s.trim() == "install ok installed")
    }

    /// Removes the package (as a user would: `apt remove`, not purge).
    fn remove(self) {
        let out = Command::new("dpkg")
            .args(["--remove", &self.name])
            .env("DEBIAN_FRONTEND", "noninteractive")
            .output()
            .expect("dpkg");
        assert!(
            out.status.success(),
            "dpkg --remove {} failed: {}",
            self.name,
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!Installed::is_installed(&self.name), "{} is still installed", self.name);
    }
}

impl Drop for Installed {
    fn drop(&mut self) {
        if Installed::is_installed(&self.name) {
            let _ = Command::new("dpkg").args(["--remove", &self.name]).status();
        }
    }
}

/// This test changes the machine's installed packages: it needs root, and says so.
fn require_root() {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let uid = status
        .lines()
        .find_map(|l| l.strip_prefix("Uid:"))
        .and_then(|ids| ids.split_whitespace().nth(1))
        .unwrap_or("?")
        .to_string();
    assert_eq!(
        uid, "0",
        "the installed-package test installs the .deb with dpkg and removes it again, which needs root \
         (effective uid {uid}): run it as root, as CI does (`sudo -E npm test`)"
    );
}

/// The files a package lists (`dpkg -L`), the folders left out.
fn package_files(name: &str) -> Vec<PathBuf> {
    run_ok("dpkg", &["--listfiles", name])
        .lines()
        .map(PathBuf::from)
        .filter(|p| p.is_file() || p.is_symlink())
        .collect()
}

/// `xdg-mime query filetype`, as on a GNOME desktop (through `gio`, which reads the shared MIME
/// database; outside a desktop session xdg-mime asks `file`, which only reads the content).
fn filetype(path: &Path) -> String {
    let out = Command::new("xdg-mime")
        .args(["query", "filetype"])
        .arg(path)
        .env("XDG_CURRENT_DESKTOP", "GNOME")
        .output()
        .expect("xdg-mime (apt package xdg-utils)");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// The applications the desktop's cache lists for a MIME type ("Open With").
fn open_with(mime: &str) -> Vec<String> {
    let cache = std::fs::read_to_string(MIME_CACHE).unwrap_or_default();
    cache
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{mime}=")))
        .map(|apps| apps.split(';').filter(|a| !a.is_empty()).map(String::from).collect())
        .unwrap_or_default()
}

/// Sample files named as Trellis's own types are, plus a plain JSON and a plain Markdown file.
fn named_files(dir: &Path) -> Vec<(PathBuf, &'static str)> {
    let graph = std::fs::read(harness::corpus("ilmek/docs/graphs-as-data.mdx-support.json")).expect("corpus");
    let weaveflow = std::fs::read(harness::corpus("weaveflow/assistant.json")).expect("corpus");
    let graphmd = std::fs::read(harness::corpus("graphmd/support-triage/GRAPH.md")).expect("corpus");
    let files = [
        ("support.graph.json", &graph, "application/x-trellis-graph+json"),
        ("assistant.weaveflow.json", &weaveflow, "application/x-weaveflow+json"),
        ("GRAPH.md", &graphmd, "text/x-graph-md"),
        ("triage.graph.md", &graphmd, "text/x-graph-md"),
        ("package.json", &graph, "application/json"),
        ("notes.md", &graphmd, "text/markdown"),
    ];
    files
        .into_iter()
        .map(|(name, bytes, mime)| {
            let p = dir.join(name);
            std::fs::write(&p, bytes).expect("write");
            (p, mime)
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_deb_installs_opens_files_keeps_settings_and_removes_cleanly() {
    require_root();
    let deb = built_package("deb");
    let work = tempfile::tempdir().expect("tmp");

    // Install.
    let installed = Installed::install(&deb);
    let files = package_files(&installed.name);
    for want in [APP, CLI, DESKTOP, MIME_XML] {
        assert!(files.iter().any(|f| f == Path::new(want)), "the package installs {want}: {files:?}");
    }

    // Both programs answer their version; the app without a display and at once.
    assert_eq!(run_ok(CLI, &["--version"]).trim(), format!("trellis {}", env!("CARGO_PKG_VERSION")));
    let started = std::time::Instant::now();
    let out = Command::new(APP).arg("--version").env_clear().output().expect("trellis-app --version");
    assert!(out.status.success(), "trellis-app --version: {out:?}");
    let line = String::from_utf8_lossy(&out.stdout).trim().to_string();
    assert_eq!(line, format!("trellis-app {} (commit {})", env!("CARGO_PKG_VERSION"), packages::commit()));
    assert!(started.elapsed().as_secs() < 5, "--version took {:?}", started.elapsed());

    // The MIME database knows the owned names; plain JSON and Markdown stay what they were,
    // and Trellis is offered for them ("Open With") and is the application for its own types.
    for (path, mime) in named_files(work.path()) {
        assert_eq!(filetype(&path), mime, "the type of {}", path.display());
    }
    for mime in ["application/x-trellis-graph+json", "application/x-weaveflow+json", "text/x-graph-md"] {
        assert_eq!(open_with(mime), vec!["Trellis.desktop".to_string()], "the applications for {mime}");
        let default = Command::new("xdg-mime")
            .args(["query", "default", mime])
            .env("HOME", work.path())
            .output()
            .expect("xdg-mime");
        assert_eq!(
            String::from_utf8_lossy(&default.stdout).trim(),
            "Trellis.desktop",
            "xdg-mime's default for {mime}"
        );
    }
    for mime in ["application/json", "text/markdown"] {
        assert!(
            open_with(mime).contains(&"Trellis.desktop".to_string()),
            "Open With for {mime}: {:?}",
            open_with(mime)
        );
    }

    // The installed app, used: files from the command line and from a second start, settings
    // kept and a broken settings file survived.
    let home = work.path().join("home");
    std::fs::create_dir_all(&home).expect("home");
    use_app::open_second_start_keep_settings(Path::new(APP), &home, work.path()).await;

    // Remove: every file the package installed is gone, the types are forgotten, and only the
    // user's own files (settings, recent files, log) are left.
    installed.remove();
    for f in &files {
        assert!(!f.exists(), "{} is left after removing the package", f.display());
    }
    let graph = work.path().join("support.graph.json");
    assert_eq!(filetype(&graph), "application/json", "the MIME database forgot the type");
    assert!(!std::fs::read_to_string(MIME_CACHE).unwrap_or_default().contains("Trellis.desktop"));
    let config = home.join(".config/dev.trellis.desktop");
    assert!(config.join("settings.json").is_file(), "the user's settings stay");
    assert!(
        home.join(".local/share/dev.trellis.desktop/recent.json").is_file(),
        "the user's recent files stay"
    );
}
