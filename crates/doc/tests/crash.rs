//! Crash test on the real file system: a child process saving in a loop (through the real
//! save pipeline) is killed with SIGKILL at random moments, at least 100 times. After every
//! kill the file must be exactly the complete canonical text of one version: never a mix,
//! never empty, never a partial write.
//!
//! The child is this very test binary, re-invoked with `TRELLIS_CRASH_CHILD` set and a filter
//! that runs only [`crash_child_entry`].

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Map, Value};
use trellis_doc::edit::Edit;
use trellis_doc::session::{DocId, Registries, Session};
use trellis_doc::{save, RealFs, SystemClock};
use trellis_spec::{writer, ChannelSpec, EdgeSpec, GraphSpec, NodeSpec, ReducerName, START};

const CHILD_ENV: &str = "TRELLIS_CRASH_CHILD";
const KILLS: usize = 120;

/// A large, version-specific payload so a torn write would show (and writes take a while).
fn payload(n: u64) -> String {
    let unit = format!("version {n} / ");
    unit.repeat(120_000 / unit.len())
}

fn config(n: u64) -> Map<String, Value> {
    json!({"channel": "v", "value": payload(n)}).as_object().cloned().unwrap_or_default()
}

fn spec(n: u64) -> GraphSpec {
    let mut s = GraphSpec { name: Some(format!("v{n}")), ..GraphSpec::default() };
    s.channels.insert("v".into(), ChannelSpec { reducer: ReducerName::LastWrite });
    s.nodes.push(NodeSpec { id: "a".into(), type_name: Some("set_value".into()), config: config(n).into() });
    s.edges.push(EdgeSpec { from: START.into(), to: "a".into(), when: None });
    s
}

fn expected(n: u64) -> String {
    writer::to_canonical_string(&spec(n))
}

fn registries() -> Registries {
    Registries::new(trellis_spec::builtin::default_registry())
}

/// The child: opens the file and saves a new version in a loop until killed.
#[test]
fn crash_child_entry() {
    let Ok(path) = std::env::var(CHILD_ENV) else { return };
    let path = PathBuf::from(path);
    let mut session = Session::open(&RealFs, DocId(1), &path, registries(), Arc::new(SystemClock))
        .expect("child opens the file");
    let mut n: u64 = session
        .spec()
        .and_then(|s| s.name.as_deref())
        .and_then(|name| name.strip_prefix('v'))
        .and_then(|v| v.parse().ok())
        .expect("child reads the version");
    // The parent times its kills from these lines, so they land inside saves.
    loop {
        n += 1;
        session.apply(&Edit::SetConfig { id: "a".into(), config: config(n) }).expect("edit");
        session.apply(&Edit::RenameGraph { name: Some(format!("v{n}")) }).expect("edit");
        println!("saving {n}");
        save::save(&RealFs, &mut session).expect("child saves");
        println!("saved {n}");
    }
}

/// A small xorshift: random kill times without a dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn check_file(path: &Path) -> u64 {
    let bytes = std::fs::read(path).expect("the file always exists");
    assert!(!bytes.is_empty(), "the file is empty after a kill");
    let text = String::from_utf8(bytes).expect("the file is UTF-8");
    let parsed = trellis_spec::read::parse_spec(&text);
    let spec = parsed
        .spec
        .unwrap_or_else(|| panic!("the file does not parse after a kill: {:?}", parsed.diagnostics));
    let n: u64 = spec
        .name
        .as_deref()
        .and_then(|name| name.strip_prefix('v'))
        .and_then(|v| v.parse().ok())
        .expect("a version name");
    assert!(
        text == expected(n),
        "the file is not exactly version {n}: a mix or a partial write ({} bytes)",
        text.len()
    );
    n
}

#[test]
fn killed_saves_leave_the_old_or_the_new_version() {
    if std::env::var(CHILD_ENV).is_ok() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("crash.json");
    std::fs::write(&path, expected(0)).expect("seed");
    let exe = std::env::current_exe().expect("test binary");
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(7);
    let mut rng = Rng(seed | 1);
    let mut last = 0;
    let mut advanced = 0;
    // A running estimate of how long one save takes.
    let mut save_time = Duration::from_millis(20);
    let started = Instant::now();
    for _ in 0..KILLS {
        let mut child = Command::new(&exe)
            .args(["crash_child_entry", "--exact", "--nocapture", "--test-threads=1"])
            .env(CHILD_ENV, &path)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn child");
        // Wait for the start of a random one of the first three saves, then kill at a random
        // moment within the time a save takes: kills land inside saves whatever the load.
        let target = 1 + rng.next() % 3;
        let stdout = child.stdout.take().expect("stdout");
        let mut reader = BufReader::new(stdout);
        let mut line = String::new();
        let mut started_saves = 0;
        let mut save_began = Instant::now();
        while started_saves < target {
            line.clear();
            if reader.read_line(&mut line).expect("read child") == 0 {
                panic!("the child ended on its own: {:?}", child.wait());
            }
            if line.starts_with("saving") {
                started_saves += 1;
                save_began = Instant::now();
            } else if line.starts_with("saved") {
                let took = save_began.elapsed();
                save_time = (save_time * 3 + took) / 4;
            }
        }
        let window = u64::try_from(save_time.as_micros()).unwrap_or(20_000).max(1_000);
        std::thread::sleep(Duration::from_micros(rng.next() % window));
        child.kill().expect("kill");
        child.wait().expect("wait child");
        let n = check_file(&path);
        assert!(n >= last, "the version went backwards: {last} -> {n}");
        if n > last {
            advanced += 1;
        }
        last = n;
        // The layout sidecar, when present, is complete too.
        let side = dir.path().join("crash.layout.json");
        if let Ok(text) = std::fs::read_to_string(&side) {
            trellis_doc::Layout::parse(&text).expect("the layout file is complete");
        }
    }
    // Leftover temporary files are hidden and never the document.
    for entry in std::fs::read_dir(dir.path()).expect("ls") {
        let name = entry.expect("entry").file_name().to_string_lossy().into_owned();
        assert!(
            name == "crash.json" || name == "crash.layout.json" || name.starts_with(".crash."),
            "unexpected {name}"
        );
    }
    println!(
        "{KILLS} kills in {:?} (a save takes about {save_time:?}); the version advanced across {advanced} of them, up to v{last}",
        started.elapsed()
    );
    assert!(
        advanced >= KILLS / 3,
        "the child rarely got to save ({advanced} of {KILLS}): the test did not test much"
    );
}
