//! What each package holds, read from the package files themselves (no installing, no root):
//! the app and the command line, the desktop entry (valid for `desktop-file-validate`, opening
//! files with `%F`, listing the MIME types), icons at the usual sizes, the MIME types (a MIME
//! database built from them knows the names), the licence, the install scripts, and a size of at
//! most 20 MB.

use std::path::Path;
use std::process::Command;

use crate::packages::{built_package, run_ok, size};

/// The most a package may weigh (issue 51).
const MAX_BYTES: u64 = 20_000_000;
const ICON_SIZES: [u32; 6] = [32, 48, 64, 128, 256, 512];

/// The paths every package holds (the licence's folder differs: see each test).
fn common_paths() -> Vec<String> {
    let mut paths: Vec<String> = [
        "/usr/bin/trellis-app",
        "/usr/bin/trellis",
        "/usr/share/applications/Trellis.desktop",
        "/usr/share/mime/packages/trellis.xml",
    ]
    .map(String::from)
    .to_vec();
    for s in ICON_SIZES {
        paths.push(format!("/usr/share/icons/hicolor/{s}x{s}/apps/trellis-app.png"));
    }
    paths
}

/// Width and height of a PNG (its IHDR chunk).
fn png_size(path: &Path) -> (u32, u32) {
    let bytes = std::fs::read(path).expect("icon");
    assert_eq!(&bytes[1..4], b"PNG", "{} is a PNG", path.display());
    let be = |i: usize| u32::from_be_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    (be(16), be(20))
}

#[test]
fn the_deb_holds_the_app_the_cli_the_desktop_entry_icons_types_and_licence() {
    let deb = built_package("deb");
    assert!(size(&deb) <= MAX_BYTES, "{} is {} bytes, more than 20 MB", deb.display(), size(&deb));
    let listing = run_ok("dpkg-deb", &["--contents", &deb.to_string_lossy()]);
    let mut want = common_paths();
    for f in ["copyright", "LICENSE-MIT", "LICENSE-APACHE"] {
        want.push(format!("/usr/share/doc/trellis/{f}"));
    }
    for p in &want {
        // Listed as `./usr/...` or `usr/...`, as the bundler wrote the archive.
        let held = listing
            .lines()
            .filter_map(|l| l.split_whitespace().last())
            .any(|f| f.trim_start_matches('.').trim_start_matches('/') == p.trim_start_matches('/'));
        assert!(held, "the .deb holds {p}:\n{listing}");
    }
    // Nothing that would make Trellis the default application of a type it does not own.
    assert!(!listing.contains("mimeapps.list") && !listing.contains("defaults.list"), "{listing}");

    let info = run_ok("dpkg-deb", &["--info", &deb.to_string_lossy()]);
    assert!(info.contains("Package: trellis"), "{info}");
    assert!(info.contains("libwebkit2gtk-4.1-0"), "it depends on WebKitGTK 4.1: {info}");
    for script in ["postinst", "postrm"] {
        let text = run_ok("dpkg-deb", &["--info", &deb.to_string_lossy(), script]);
        assert!(
            text.contains("update-mime-database") && text.contains("update-desktop-database"),
            "{script}: {text}"
        );
    }

    let root = tempfile::tempdir().expect("tmp");
    run_ok("dpkg-deb", &["--extract", &deb.to_string_lossy(), &root.path().to_string_lossy()]);
    let at = |p: &str| root.path().join(p.trim_start_matches('/'));

    // The desktop entry: valid, opens files (`%F`), offered for the owned types and for JSON
    // and Markdown.
    let desktop = at("/usr/share/applications/Trellis.desktop");
    let out = Command::new("desktop-file-validate")
        .arg(&desktop)
        .output()
        .expect("desktop-file-validate (apt package desktop-file-utils)");
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success() && said.trim().is_empty(), "desktop-file-validate: {said}");
    let entry = std::fs::read_to_string(&desktop).expect("desktop entry");
    assert!(entry.lines().any(|l| l == "Exec=trellis-app %F"), "{entry}");
    assert!(entry.lines().any(|l| l == "Icon=trellis-app"), "{entry}");
    let mime = entry.lines().find_map(|l| l.strip_prefix("MimeType=")).expect("MimeType=");
    for t in [
        "application/x-trellis-graph+json",
        "application/x-weaveflow+json",
        "text/x-graph-md",
        "application/json",
        "text/markdown",
    ] {
        assert!(mime.split(';').any(|m| m == t), "MimeType= lists {t}: {mime}");
    }

    // Icons at the usual sizes, each the size its folder says.
    for s in ICON_SIZES {
        let icon = at(&format!("/usr/share/icons/hicolor/{s}x{s}/apps/trellis-app.png"));
        assert_eq!(png_size(&icon), (s, s), "{}", icon.display());
    }

    // The licence texts are the repository's.
    let repo = crate::harness::repo_root();
    for f in ["LICENSE-MIT", "LICENSE-APACHE"] {
        assert_eq!(
            std::fs::read(at(&format!("/usr/share/doc/trellis/{f}"))).expect(f),
            std::fs::read(repo.join(f)).expect(f)
        );
    }
    assert!(std::fs::read_to_string(at("/usr/share/doc/trellis/copyright"))
        .expect("copyright")
        .contains("MIT or Apache-2.0"));

    // The programs in the package run (no display needed for --version).
    let cli = run_ok(&at("/usr/bin/trellis").to_string_lossy(), &["--version"]);
    assert_eq!(cli.trim(), format!("trellis {}", env!("CARGO_PKG_VERSION")));
    let app = run_ok(&at("/usr/bin/trellis-app").to_string_lossy(), &["--version"]);
    assert!(app.starts_with(&format!("trellis-app {} (commit ", env!("CARGO_PKG_VERSION"))), "{app}");

    // A MIME database made from the package's types (and the system's, which they extend)
    // knows the owned names, and update-mime-database finds nothing wrong in them.
    // Made as `<data home>/mime`, with that data home in the search path (otherwise the tool
    // says on stderr that applications may not find it).
    let home = tempfile::tempdir().expect("tmp");
    let db = home.path().join("mime");
    let packages = db.join("packages");
    std::fs::create_dir_all(&packages).expect("mkdir");
    std::fs::copy(at("/usr/share/mime/packages/trellis.xml"), packages.join("trellis.xml")).expect("copy");
    std::fs::copy("/usr/share/mime/packages/freedesktop.org.xml", packages.join("freedesktop.org.xml"))
        .expect("the system's MIME types (apt package shared-mime-info)");
    let out = Command::new("update-mime-database")
        .arg(&db)
        .env("XDG_DATA_HOME", home.path())
        .output()
        .expect("update-mime-database");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && said.trim().is_empty(), "update-mime-database: {said}");
    let globs = std::fs::read_to_string(db.join("globs2")).expect("globs2");
    for (glob, t) in [
        ("*.graph.json", "application/x-trellis-graph+json"),
        ("*.weaveflow.json", "application/x-weaveflow+json"),
        ("GRAPH.md", "text/x-graph-md"),
        ("*.graph.md", "text/x-graph-md"),
    ] {
        assert!(globs.lines().any(|l| l.contains(&format!(":{t}:{glob}"))), "globs2 maps {glob} to {t}");
    }
    let subclasses = std::fs::read_to_string(db.join("subclasses")).expect("subclasses");
    for (t, parent) in [
        ("application/x-trellis-graph+json", "application/json"),
        ("application/x-weaveflow+json", "application/json"),
        ("text/x-graph-md", "text/markdown"),
    ] {
        assert!(subclasses.lines().any(|l| l == format!("{t} {parent}")), "{t} is a kind of {parent}");
    }
}

#[test]
fn the_rpm_holds_the_same_with_its_scripts_and_licence() {
    let rpm = built_package("rpm");
    assert!(size(&rpm) <= MAX_BYTES, "{} is {} bytes, more than 20 MB", rpm.display(), size(&rpm));
    let rpm = rpm.to_string_lossy();
    let listing = run_ok("rpm", &["--query", "--list", "--package", &rpm]);
    let mut want = common_paths();
    for f in ["LICENSE-MIT", "LICENSE-APACHE"] {
        want.push(format!("/usr/share/licenses/trellis/{f}"));
    }
    for p in &want {
        assert!(listing.lines().any(|l| l == p), "the .rpm holds {p}:\n{listing}");
    }
    let scripts = run_ok("rpm", &["--query", "--scripts", "--package", &rpm]);
    assert!(
        scripts.contains("postinstall scriptlet") && scripts.contains("postuninstall scriptlet"),
        "{scripts}"
    );
    assert_eq!(scripts.matches("update-mime-database /usr/share/mime").count(), 2, "{scripts}");
    let license = run_ok("rpm", &["--query", "--queryformat", "%{LICENSE}", "--package", &rpm]);
    assert_eq!(license, "MIT OR Apache-2.0");
    let name = run_ok("rpm", &["--query", "--queryformat", "%{NAME}", "--package", &rpm]);
    assert_eq!(name, "trellis");
}
