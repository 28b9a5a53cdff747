//! The app's one window: its label in tauri.conf.json, which the title, the quit prompt, the
//! file drop and the notices of files that did not open all look it up by.

/// The main window's label (tauri.conf.json).
pub const MAIN_WINDOW: &str = "main";
