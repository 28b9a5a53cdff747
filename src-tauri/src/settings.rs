//! The settings Trellis keeps between runs: the theme and the widths of the resizable panes.
//! (The window's size, place and maximized state are kept by `tauri-plugin-window-state`
//! beside this file, the recent files by the workspace in the data folder.)
//!
//! One small JSON file, `settings.json` in the app's config folder (`~/.config/dev.trellis.desktop`
//! on Linux; the `TRELLIS_DATA_DIR` folder when that is set, as for tests). It is read
//! tolerantly: a missing file, an unknown key (from a newer Trellis, kept when writing back) or
//! a value out of range (that one setting takes its default) is no problem. A file that cannot
//! be read as settings at all (not JSON, not an object, unreadable, absurdly large) is renamed
//! aside (`settings.json.unreadable-<seconds>`), so nothing the user had is overwritten, and the
//! window shows a notice; the app starts with the defaults. Every write is atomic (a temporary
//! file renamed over the old one), so a crash while saving never leaves half a file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tauri::State;
use trellis_doc::{atomic_write, RealFs};
use trellis_spec::Diagnostic;
use ts_rs::TS;

use crate::answer::Answer;

/// Diagnostic codes of this module (docs/diagnostics.md, "settings").
pub mod codes {
    /// The settings file could not be read as settings; it was renamed aside.
    pub const SET_ASIDE: &str = "settings/set-aside";
    /// The settings file could not be read, nor renamed aside: settings are not saved this run.
    pub const UNREADABLE: &str = "settings/unreadable";
    /// Writing the settings file failed (the step and reason are in the message).
    pub const WRITE_FAILED: &str = "settings/write-failed";
}

/// The settings file's name in its folder.
pub const FILE_NAME: &str = "settings.json";
/// The window-state plugin's file, beside the settings.
pub const WINDOW_STATE_FILE: &str = "window-state.json";
/// A settings file larger than this is not settings (a few hundred bytes is usual).
const MAX_BYTES: u64 = 1024 * 1024;
/// Pane widths are CSS pixels; anything outside this range is not a width a window can show.
const MAX_SPLIT: f64 = 10_000.0;
/// At most this many remembered panes (names are the UI's own, a handful).
const MAX_SPLITS: usize = 64;
const MAX_SPLIT_NAME: usize = 64;

/// The folder of the settings and the window state: `TRELLIS_DATA_DIR` when set, else the
/// platform's app config folder.
pub fn folder(app: &tauri::AppHandle) -> PathBuf {
    use tauri::Manager;
    crate::state::data_dir_override()
        .or_else(|| app.path().app_config_dir().ok())
        .unwrap_or_else(|| crate::state::data_dir(None))
}

/// Light, dark, or following the desktop's preference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum Theme {
    #[default]
    System,
    Light,
    Dark,
}

/// What is kept between runs (and what the window sends back when one changes).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct Settings {
    pub theme: Theme,
    /// The width of each resizable pane, in CSS pixels, by the pane's name (`registry`,
    /// `inspector`, ...).
    pub splits: BTreeMap<String, f64>,
}

impl Settings {
    /// The settings with every value a window can use (the others dropped: they take their
    /// defaults).
    fn sanitized(mut self) -> Settings {
        self.splits.retain(|name, width| good_split(name, *width));
        while self.splits.len() > MAX_SPLITS {
            self.splits.pop_last();
        }
        self
    }
}

fn good_split(name: &str, width: f64) -> bool {
    !name.is_empty() && name.len() <= MAX_SPLIT_NAME && width.is_finite() && width > 0.0 && width <= MAX_SPLIT
}

/// What `load_settings` answers: the settings, and the notices of the start (told once).
#[derive(Debug, Clone, Serialize, TS)]
#[ts(export)]
pub struct SettingsAnswer {
    pub settings: Settings,
    pub notices: Vec<Diagnostic>,
}

/// Why a file's text is not settings.
#[derive(Debug, Clone, PartialEq)]
struct NotSettings(String);

/// Reads settings from a file's bytes, tolerantly: every setting that reads is taken, the
/// others keep their defaults; keys this version does not know are answered apart so a write
/// keeps them. `Err` only when the text is not a JSON object at all.
fn parse(bytes: &[u8]) -> Result<(Settings, Map<String, Value>), NotSettings> {
    let text = std::str::from_utf8(bytes).map_err(|_| NotSettings("it is not text (UTF-8)".into()))?;
    let value: Value = serde_json::from_str(text).map_err(|e| {
        NotSettings(format!("it is not JSON (line {}, column {}: {})", e.line(), e.column(), json_reason(&e)))
    })?;
    let Value::Object(mut object) = value else {
        return Err(NotSettings("it is not a JSON object".into()));
    };
    let mut settings = Settings::default();
    if let Some(theme) = object.remove("theme") {
        settings.theme = serde_json::from_value(theme).unwrap_or_default();
    }
    if let Some(Value::Object(splits)) = object.remove("splits") {
        for (name, width) in splits {
            if let Some(w) = width.as_f64() {
                settings.splits.insert(name, w);
            }
        }
    }
    object.remove("version");
    Ok((settings.sanitized(), object))
}

/// serde_json's reason without its own "at line .. column .." tail (the place is said once).
fn json_reason(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// The text written: the settings, a format version, and the keys a newer Trellis wrote.
fn render(settings: &Settings, others: &Map<String, Value>) -> String {
    let mut object = Map::new();
    object.insert("version".into(), Value::from(1));
    if let Ok(Value::Object(known)) = serde_json::to_value(settings) {
        object.extend(known);
    }
    for (k, v) in others {
        object.entry(k.clone()).or_insert_with(|| v.clone());
    }
    let mut text = serde_json::to_string_pretty(&Value::Object(object)).unwrap_or_else(|_| "{}".into());
    text.push('\n');
    text
}

#[derive(Debug)]
struct Held {
    settings: Settings,
    others: Map<String, Value>,
    /// False when an unreadable file could not be set aside: writing would destroy it.
    writable: bool,
    notices: Vec<Diagnostic>,
}

/// The settings of this run, managed by Tauri.
#[derive(Debug)]
pub struct SettingsStore {
    path: PathBuf,
    held: Mutex<Held>,
}

impl SettingsStore {
    /// Reads `folder/settings.json` (see the module's comment for what is tolerated).
    pub fn load(folder: &Path) -> SettingsStore {
        let path = folder.join(FILE_NAME);
        let held = match read_file(&path) {
            Ok(None) => {
                Held { settings: Settings::default(), others: Map::new(), writable: true, notices: vec![] }
            }
            Ok(Some((settings, others))) => Held { settings, others, writable: true, notices: vec![] },
            Err(reason) => {
                let (writable, notice) = set_aside(&path, &reason);
                log::warn!("settings: {}", notice.message);
                Held { settings: Settings::default(), others: Map::new(), writable, notices: vec![notice] }
            }
        };
        SettingsStore { path, held: Mutex::new(held) }
    }

    fn held(&self) -> std::sync::MutexGuard<'_, Held> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The settings now.
    pub fn get(&self) -> Settings {
        self.held().settings.clone()
    }

    /// The notices of the start; asked once (a second call answers none).
    pub fn take_notices(&self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.held().notices)
    }

    /// Keeps `settings` (values a window cannot use are dropped) and writes the file.
    pub fn set(&self, settings: Settings) -> Result<(), Diagnostic> {
        let mut held = self.held();
        let settings = settings.sanitized();
        if settings == held.settings && self.path.exists() {
            return Ok(());
        }
        held.settings = settings;
        if !held.writable {
            return Ok(());
        }
        let text = render(&held.settings, &held.others);
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| write_failed(&self.path, &e.to_string()))?;
        }
        atomic_write(&RealFs, &self.path, text.as_bytes(), 0o600)
            .map(|_| ())
            .map_err(|e| write_failed(&self.path, &e.to_string()))
    }

    /// Where the file is.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

fn write_failed(path: &Path, reason: &str) -> Diagnostic {
    Diagnostic::error(
        codes::WRITE_FAILED,
        format!("the settings could not be saved to {}: {reason}", path.display()),
    )
}

/// The settings a file holds, and the whole object as read (keys this version does not know
/// are written back as they were).
type ReadSettings = (Settings, Map<String, Value>);

/// `Ok(None)`: no file (first start). `Err`: a file that is not settings, and why.
fn read_file(path: &Path) -> Result<Option<ReadSettings>, NotSettings> {
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(NotSettings(format!("it cannot be read ({e})"))),
        Ok(m) if !m.is_file() => return Err(NotSettings("it is not a file".into())),
        Ok(m) if m.len() > MAX_BYTES => {
            return Err(NotSettings(format!("it is {} bytes long, far more than settings take", m.len())))
        }
        Ok(_) => {}
    }
    let bytes = std::fs::read(path).map_err(|e| NotSettings(format!("it cannot be read ({e})")))?;
    parse(&bytes).map(Some)
}

/// Renames the unreadable file aside; answers whether settings may be written, and the notice.
fn set_aside(path: &Path, reason: &NotSettings) -> (bool, Diagnostic) {
    let aside = aside_name(path);
    let shown = aside.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    match std::fs::rename(path, &aside) {
        Ok(()) => (
            true,
            Diagnostic::warning(
                codes::SET_ASIDE,
                format!(
                    "The settings file could not be read: {}. Trellis started with the default settings and kept the old file as {}.",
                    reason.0,
                    aside.display()
                ),
            ),
        ),
        Err(e) => (
            false,
            Diagnostic::warning(
                codes::UNREADABLE,
                format!(
                    "The settings file {} could not be read: {}; nor could it be set aside as {shown} ({e}). Trellis started with the default settings and does not save settings until the file is fixed or removed.",
                    path.display(),
                    reason.0
                ),
            ),
        ),
    }
}

/// `settings.json.unreadable-<unix seconds>` beside it (`-2`, `-3`, ... when taken).
fn aside_name(path: &Path) -> PathBuf {
    let secs =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let base =
        format!("{}.unreadable-{secs}", path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default());
    let mut candidate = path.with_file_name(&base);
    let mut n = 2;
    while candidate.exists() {
        candidate = path.with_file_name(format!("{base}-{n}"));
        n += 1;
    }
    candidate
}

/// The settings and the notices of the start (the window asks once, when it starts).
#[tauri::command]
pub fn load_settings(store: State<'_, SettingsStore>) -> SettingsAnswer {
    SettingsAnswer { settings: store.get(), notices: store.take_notices() }
}

/// Keeps the settings the window sends (the theme chosen, a pane resized).
#[tauri::command]
pub fn save_settings(store: State<'_, SettingsStore>, settings: Settings) -> Answer<()> {
    store.set(settings).map_err(|d| {
        log::error!("settings: {}", d.message);
        d.into()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store_with(text: Option<&[u8]>) -> (tempfile::TempDir, SettingsStore) {
        let dir = tempfile::tempdir().expect("tmp");
        if let Some(t) = text {
            std::fs::write(dir.path().join(FILE_NAME), t).expect("write");
        }
        let store = SettingsStore::load(dir.path());
        (dir, store)
    }

    fn asides(dir: &Path) -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
            .expect("dir")
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().contains(".unreadable-")))
            .collect();
        v.sort();
        v
    }

    #[test]
    fn no_file_is_the_defaults_without_a_notice() {
        let (dir, store) = store_with(None);
        assert_eq!(store.get(), Settings::default());
        assert!(store.take_notices().is_empty());
        assert!(!dir.path().join(FILE_NAME).exists(), "reading writes nothing");
    }

    #[test]
    fn settings_written_read_back_and_unknown_keys_are_kept() {
        let (dir, store) = store_with(Some(br#"{"theme": "dark", "fromANewerTrellis": {"x": 1}}"#));
        assert_eq!(store.get().theme, Theme::Dark);
        let mut s = store.get();
        s.splits.insert("registry".into(), 300.0);
        store.set(s.clone()).expect("saved");
        let again = SettingsStore::load(dir.path());
        assert_eq!(again.get(), s);
        let text = std::fs::read_to_string(dir.path().join(FILE_NAME)).expect("read");
        let v: Value = serde_json::from_str(&text).expect("json");
        assert_eq!(v["fromANewerTrellis"]["x"], 1, "{text}");
        assert_eq!(v["version"], 1);
        assert!(asides(dir.path()).is_empty());
    }

    #[test]
    fn a_bad_value_takes_its_default_and_the_rest_is_kept() {
        let (_dir, store) = store_with(Some(
            br#"{"theme": "purple", "splits": {"registry": 280, "inspector": -5, "huge": 1e300, "text": "wide", "": 3}}"#,
        ));
        let s = store.get();
        assert_eq!(s.theme, Theme::System);
        assert_eq!(s.splits.into_iter().collect::<Vec<_>>(), vec![("registry".to_string(), 280.0)]);
        assert!(store.take_notices().is_empty(), "tolerated, not a broken file");
    }

    #[test]
    fn a_corrupt_file_is_set_aside_with_a_notice_and_the_defaults() {
        let broken = b"{\"theme\": \"dark\",\n  \"splits\": {\"registry\": 2";
        let (dir, store) = store_with(Some(broken));
        assert_eq!(store.get(), Settings::default());
        let notices = store.take_notices();
        assert_eq!(notices.len(), 1);
        assert_eq!(notices[0].code, codes::SET_ASIDE);
        assert!(notices[0].message.contains("line 2"), "{}", notices[0].message);
        assert!(store.take_notices().is_empty(), "told once");
        let aside = asides(dir.path());
        assert_eq!(aside.len(), 1, "the old file is kept aside");
        assert_eq!(std::fs::read(&aside[0]).expect("aside"), broken, "byte for byte");
        assert!(notices[0].message.contains(&aside[0].display().to_string()));
        assert!(!dir.path().join(FILE_NAME).exists());
        // The next save writes a fresh file and leaves the set-aside one alone.
        store.set(Settings { theme: Theme::Light, ..Settings::default() }).expect("saved");
        assert_eq!(SettingsStore::load(dir.path()).get().theme, Theme::Light);
        assert_eq!(std::fs::read(&aside[0]).expect("aside"), broken);
    }

    #[test]
    fn what_is_not_settings_is_set_aside() {
        for bad in [&b"[1, 2]"[..], b"\"dark\"", b"\xff\xfe{}", b"", b"null"] {
            let (dir, store) = store_with(Some(bad));
            assert_eq!(store.take_notices().len(), 1, "{bad:?}");
            assert_eq!(asides(dir.path()).len(), 1, "{bad:?}");
        }
        let (dir, store) = store_with(None);
        drop(store);
        let huge = vec![b' '; (MAX_BYTES + 1) as usize];
        std::fs::write(dir.path().join(FILE_NAME), huge).expect("write");
        let store = SettingsStore::load(dir.path());
        assert!(store.take_notices()[0].message.contains("bytes long"));
    }

    #[test]
    fn a_folder_in_the_files_place_is_set_aside_too() {
        let dir = tempfile::tempdir().expect("tmp");
        std::fs::create_dir(dir.path().join(FILE_NAME)).expect("mkdir");
        let store = SettingsStore::load(dir.path());
        assert_eq!(store.take_notices()[0].code, codes::SET_ASIDE);
        store.set(Settings { theme: Theme::Dark, ..Settings::default() }).expect("saved");
        assert_eq!(SettingsStore::load(dir.path()).get().theme, Theme::Dark);
    }

    #[test]
    fn the_aside_name_never_replaces_an_earlier_one() {
        let dir = tempfile::tempdir().expect("tmp");
        let path = dir.path().join(FILE_NAME);
        let first = aside_name(&path);
        std::fs::write(&first, "x").expect("write");
        let second = aside_name(&path);
        assert_ne!(first, second);
        assert!(second.to_string_lossy().ends_with("-2"));
    }

    #[test]
    fn values_no_window_can_use_are_not_kept() {
        let (dir, store) = store_with(None);
        let mut s = Settings::default();
        s.splits.insert("registry".into(), f64::INFINITY);
        s.splits.insert("x".repeat(100), 200.0);
        s.splits.insert("inspector".into(), 340.0);
        store.set(s).expect("saved");
        let back = SettingsStore::load(dir.path()).get();
        assert_eq!(back.splits.keys().collect::<Vec<_>>(), vec!["inspector"]);
    }

    /// The answers the UI's tests run against (`ui/src/test/fixtures/settings.json`): a kept
    /// file, and a broken one set aside (its folder and time made fixed, so the file is stable).
    #[test]
    fn export_fixtures_settings() {
        let (_kept_dir, kept) =
            store_with(Some(br#"{"version": 1, "theme": "dark", "splits": {"registry": 300}}"#));
        let (broken_dir, broken) = store_with(Some(b"{\"theme\": \"dark\", \"splits\": {"));
        let answer = |s: &SettingsStore| SettingsAnswer { settings: s.get(), notices: s.take_notices() };
        let mut set_aside = answer(&broken);
        for d in &mut set_aside.notices {
            let folder = broken_dir.path().display().to_string();
            let mut m = d.message.replace(&folder, "/home/ana/.config/dev.trellis.desktop");
            if let Some(i) = m.find(".unreadable-") {
                let start = i + ".unreadable-".len();
                let end = m[start..].find(|c: char| !c.is_ascii_digit()).map_or(m.len(), |n| start + n);
                m.replace_range(start..end, "1765000000");
            }
            d.message = m;
        }
        let fixture = serde_json::json!({ "kept": answer(&kept), "setAside": set_aside });
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ui/src/test/fixtures/settings.json");
        let text = serde_json::to_string_pretty(&fixture).expect("json") + "\n";
        std::fs::write(&path, text).expect("write the fixture");
    }

    #[test]
    fn every_code_is_documented() {
        let page = include_str!("../../docs/diagnostics.md");
        for code in [codes::SET_ASIDE, codes::UNREADABLE, codes::WRITE_FAILED] {
            assert!(page.contains(&format!("| `{code}` |")), "docs/diagnostics.md lacks {code}");
        }
    }
}
