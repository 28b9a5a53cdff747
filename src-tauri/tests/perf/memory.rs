//! Memory of the app this test started and of its WebKit helper processes, from /proc:
//! per process VmRSS, VmHWM (peak) and PSS (`smaps_rollup`: shared pages split between the
//! processes that map them, so the PSS of the processes adds up), and where it goes (`smaps`,
//! grouped: the malloc heap, anonymous memory (JavaScriptCore's heap and WebKit's buffers live
//! there), WebKit's and other libraries' code and data, shared-memory buffers).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

/// The pid of the app whose environment has `TRELLIS_DATA_DIR=<dir>` (the one this test
/// started; the harness gives each app its own data folder).
pub fn app_pid(data_dir: &Path) -> u32 {
    let want = format!("TRELLIS_DATA_DIR={}", data_dir.display());
    let app_exe = PathBuf::from(env!("CARGO_BIN_EXE_trellis-app"));
    let mut app = None;
    for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else { continue };
        if std::fs::read_link(format!("/proc/{pid}/exe")).ok().as_deref() != Some(app_exe.as_path()) {
            continue;
        }
        let env = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
        if env.split(|b| *b == 0).any(|kv| kv == want.as_bytes()) {
            app = Some(pid);
        }
    }
    app.expect("the app process of this test")
}

/// The app and every process below it (WebKitWebProcess, WebKitNetworkProcess).
pub fn tree(root: u32) -> Vec<u32> {
    let mut pids = vec![root];
    let mut i = 0;
    while i < pids.len() {
        for t in std::fs::read_dir(format!("/proc/{}/task", pids[i])).into_iter().flatten().flatten() {
            let children = std::fs::read_to_string(t.path().join("children")).unwrap_or_default();
            pids.extend(children.split_whitespace().filter_map(|s| s.parse::<u32>().ok()));
        }
        i += 1;
    }
    pids
}

/// A `Key:   123 kB` line's number.
fn field(text: &str, key: &str) -> u64 {
    text.lines()
        .find(|l| l.starts_with(key))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// The group a mapping counts in, from its smaps header line.
fn group_of(header: &str) -> String {
    // `addr perms offset dev inode [path]`
    let mut parts = header.split_whitespace();
    let perms = parts.nth(1).unwrap_or("");
    let path: String = parts.skip(3).collect::<Vec<_>>().join(" ");
    let code = perms.contains('x');
    let lib = |name: &str| format!("{name} {}", if code { "code" } else { "data" });
    if path.is_empty() {
        return "anonymous (JS heap, malloc arenas, buffers)".into();
    }
    if path == "[heap]" {
        return "[heap] (brk malloc)".into();
    }
    if path.starts_with("[stack") {
        return "stacks".into();
    }
    if path.contains("libwebkit2gtk") {
        return lib("libwebkit2gtk");
    }
    if path.contains("libjavascriptcoregtk") {
        return lib("libjavascriptcoregtk");
    }
    if path.contains("memfd:") || path.starts_with("/dev/shm") || path.starts_with("/SYSV") {
        return "shared memory (memfd, /dev/shm)".into();
    }
    if path.starts_with("/dev/dri") || path.contains("drm") {
        return "GPU (/dev/dri)".into();
    }
    if path.contains("trellis-app") {
        return lib("trellis-app");
    }
    if path.contains(".so") {
        return lib("other libraries");
    }
    if path.starts_with("/usr/share/fonts") || path.contains("fontconfig") || path.ends_with(".ttf") {
        return "fonts".into();
    }
    if path.starts_with('[') {
        return path;
    }
    "other files".into()
}

/// RSS and PSS (kB) of a process's mappings, grouped by [`group_of`], biggest PSS first.
fn breakdown(pid: u32) -> Vec<Value> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/smaps")).unwrap_or_default();
    let mut groups: HashMap<String, (u64, u64, u64)> = HashMap::new();
    let mut current = String::new();
    for line in text.lines() {
        let first = line.split_whitespace().next().unwrap_or("");
        if first.contains('-') && !first.ends_with(':') {
            current = group_of(line);
            continue;
        }
        let e = groups.entry(current.clone()).or_default();
        if line.starts_with("Rss:") {
            e.0 += field(line, "Rss:");
        } else if line.starts_with("Pss:") {
            e.1 += field(line, "Pss:");
        } else if line.starts_with("Private_Dirty:") {
            e.2 += field(line, "Private_Dirty:");
        }
    }
    let mut v: Vec<(String, (u64, u64, u64))> = groups.into_iter().filter(|(_, t)| t.0 > 0).collect();
    v.sort_by_key(|(_, t)| std::cmp::Reverse(t.1));
    v.into_iter()
        .take(8)
        .map(|(g, (rss, pss, dirty))| json!({"group": g, "rss_kb": rss, "pss_kb": pss, "private_dirty_kb": dirty}))
        .collect()
}

/// Memory of the app started with `data_dir` and its children: the sums and per process
/// (RSS, peak RSS, PSS, the breakdown of the biggest mapping groups).
pub fn memory_of(data_dir: &Path) -> Value {
    let app = app_pid(data_dir);
    let mut procs = Vec::new();
    let (mut rss, mut pss) = (0u64, 0u64);
    for pid in tree(app) {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        let name = status.lines().next().and_then(|l| l.split_whitespace().nth(1)).unwrap_or("?").to_owned();
        let r = field(&status, "VmRSS:");
        let hwm = field(&status, "VmHWM:");
        let rollup = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")).unwrap_or_default();
        let p = field(&rollup, "Pss:");
        rss += r;
        pss += p;
        procs.push(json!({
            "pid": pid, "name": name, "rss_kb": r, "peak_rss_kb": hwm, "pss_kb": p,
            "pss_anon_kb": field(&rollup, "Pss_Anon:"), "pss_file_kb": field(&rollup, "Pss_File:"),
            "pss_shmem_kb": field(&rollup, "Pss_Shmem:"), "breakdown": breakdown(pid),
        }));
    }
    json!({"rss_mb": rss as f64 / 1024.0, "pss_mb": pss as f64 / 1024.0, "processes": procs, "app_pid": app})
}
