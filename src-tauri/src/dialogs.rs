//! Native dialogs (rfd, GTK3 on Linux), with the documented test-only bypass.
//!
//! `TRELLIS_TEST_DIALOG_PATH`: when set, every file dialog (Open, Save As) returns this path
//! at once instead of showing a window (an empty value = the user cancelled). GTK dialogs are
//! out of WebDriver's reach, so end-to-end tests would hang on them; everything after the
//! dialog stays real.
//!
//! `TRELLIS_TEST_CONFIRM`: when set, every unsaved-changes prompt answers it at once:
//! `save`, `discard` or `cancel`.

use std::path::PathBuf;

use rfd::{AsyncFileDialog, AsyncMessageDialog, MessageButtons, MessageDialogResult, MessageLevel};

/// The test-only variable that answers file dialogs.
pub const DIALOG_PATH_VAR: &str = "TRELLIS_TEST_DIALOG_PATH";
/// The test-only variable that answers unsaved-changes prompts.
pub const CONFIRM_VAR: &str = "TRELLIS_TEST_CONFIRM";

/// The file names the Open dialog offers.
const SPEC_EXTENSIONS: &[&str] = &["json", "md"];

fn bypass() -> Option<Option<PathBuf>> {
    std::env::var_os(DIALOG_PATH_VAR).map(|v| if v.is_empty() { None } else { Some(PathBuf::from(v)) })
}

/// Asks for a spec file to open; `None` when cancelled.
pub async fn pick_spec_file(window: &tauri::WebviewWindow) -> Option<PathBuf> {
    if let Some(answer) = bypass() {
        return answer;
    }
    // GTK filters are glob patterns on the extension: `*.md` also lists other Markdown files;
    // the format detection then refuses anything that is not GRAPH.md with a clear error.
    AsyncFileDialog::new()
        .set_title("Open a graph")
        .add_filter("Graph specs (*.json, *.graph.md, GRAPH.md)", SPEC_EXTENSIONS)
        .add_filter("All files", &["*"])
        .set_parent(window)
        .pick_file()
        .await
        .map(|h| h.path().to_path_buf())
}

/// Asks where to save; `None` when cancelled. The dialog itself confirms an overwrite.
pub async fn pick_save_path(window: &tauri::WebviewWindow, suggested: &str) -> Option<PathBuf> {
    if let Some(answer) = bypass() {
        return answer;
    }
    AsyncFileDialog::new()
        .set_title("Save graph as")
        .set_file_name(suggested)
        .add_filter("GraphSpec (*.json)", &["json"])
        .set_parent(window)
        .save_file()
        .await
        .map(|h| h.path().to_path_buf())
}

/// Asks for a file to import (any of the three formats); `None` when cancelled.
pub async fn pick_import_file(window: &tauri::WebviewWindow) -> Option<PathBuf> {
    if let Some(answer) = bypass() {
        return answer;
    }
    AsyncFileDialog::new()
        .set_title("Import a graph as a new GraphSpec document")
        .add_filter("GraphSpec, Weaveflow, GRAPH.md (*.json, *.md)", SPEC_EXTENSIONS)
        .add_filter("All files", &["*"])
        .set_parent(window)
        .pick_file()
        .await
        .map(|h| h.path().to_path_buf())
}

/// Asks where to write an exported copy; `None` when cancelled.
pub async fn pick_export_path(
    window: &tauri::WebviewWindow,
    suggested: &str,
    to: trellis_doc::DocFormat,
) -> Option<PathBuf> {
    if let Some(answer) = bypass() {
        return answer;
    }
    let (label, ext) = match to {
        trellis_doc::DocFormat::GraphSpec => ("GraphSpec (*.json)", "json"),
        trellis_doc::DocFormat::Weaveflow => ("Weaveflow (*.json)", "json"),
        trellis_doc::DocFormat::GraphMd => ("GRAPH.md (*.md)", "md"),
    };
    AsyncFileDialog::new()
        .set_title("Export a copy as")
        .set_file_name(suggested)
        .add_filter(label, &[ext])
        .set_parent(window)
        .save_file()
        .await
        .map(|h| h.path().to_path_buf())
}

/// Asks where to save a picture (`ext` is `svg` or `png`); `None` when cancelled. With the
/// test bypass naming an existing folder, the answer is the suggested name in that folder, so
/// one end-to-end run can write several pictures.
pub async fn pick_image_path(window: &tauri::WebviewWindow, suggested: &str, ext: &str) -> Option<PathBuf> {
    if let Some(answer) = bypass() {
        return answer.map(|p| if p.is_dir() { p.join(suggested) } else { p });
    }
    let label = if ext == "png" { "PNG image (*.png)" } else { "SVG image (*.svg)" };
    AsyncFileDialog::new()
        .set_title("Export image")
        .set_file_name(suggested)
        .add_filter(label, &[ext])
        .set_parent(window)
        .save_file()
        .await
        .map(|h| h.path().to_path_buf())
}

/// Asks for a run record (File > Open Run…, Compare With Run…); `None` when cancelled.
pub async fn pick_run_file(window: &tauri::WebviewWindow, title: &str) -> Option<PathBuf> {
    if let Some(answer) = bypass() {
        return answer;
    }
    AsyncFileDialog::new()
        .set_title(title)
        .add_filter(
            "Run records (*.jsonl, *.json, *.sqlite, *.db)",
            &["jsonl", "json", "ndjson", "sqlite", "db"],
        )
        .add_filter("All files", &["*"])
        .set_parent(window)
        .pick_file()
        .await
        .map(|h| h.path().to_path_buf())
}

/// Asks for a folder of run records (Open Runs Folder…); `None` when cancelled.
pub async fn pick_run_folder(window: &tauri::WebviewWindow) -> Option<PathBuf> {
    if let Some(answer) = bypass() {
        return answer;
    }
    AsyncFileDialog::new()
        .set_title("Open a folder of runs")
        .set_parent(window)
        .pick_folder()
        .await
        .map(|h| h.path().to_path_buf())
}

/// Asks where to save a run log; `None` when cancelled. With the test bypass naming an existing
/// folder, the answer is the suggested name in that folder.
pub async fn pick_run_save_path(window: &tauri::WebviewWindow, suggested: &str) -> Option<PathBuf> {
    if let Some(answer) = bypass() {
        return answer.map(|p| if p.is_dir() { p.join(suggested) } else { p });
    }
    AsyncFileDialog::new()
        .set_title("Save the run as a run log")
        .set_file_name(suggested)
        .add_filter("Trellis run log (*.jsonl)", &["jsonl"])
        .set_parent(window)
        .save_file()
        .await
        .map(|h| h.path().to_path_buf())
}

/// The answer to "save changes before closing?".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confirm {
    Save,
    Discard,
    Cancel,
}

impl Confirm {
    fn parse(s: &str) -> Confirm {
        match s.trim().to_ascii_lowercase().as_str() {
            "save" | "yes" => Confirm::Save,
            "discard" | "no" | "don't save" | "dont-save" => Confirm::Discard,
            _ => Confirm::Cancel,
        }
    }
}

const SAVE: &str = "Save";
const DISCARD: &str = "Don't Save";
const CANCEL: &str = "Cancel";

/// Asks whether to save the unsaved changes of `file_name`.
pub async fn confirm_unsaved(window: &tauri::WebviewWindow, file_name: &str) -> Confirm {
    if let Ok(answer) = std::env::var(CONFIRM_VAR) {
        return Confirm::parse(&answer);
    }
    let result = AsyncMessageDialog::new()
        .set_level(MessageLevel::Warning)
        .set_title("Unsaved changes")
        .set_description(format!(
            "Save the changes to \"{file_name}\" before closing?\n\nIf you don't save, your changes are lost."
        ))
        .set_buttons(MessageButtons::YesNoCancelCustom(SAVE.into(), DISCARD.into(), CANCEL.into()))
        .set_parent(window)
        .show()
        .await;
    match result {
        MessageDialogResult::Yes => Confirm::Save,
        MessageDialogResult::No => Confirm::Discard,
        MessageDialogResult::Custom(label) if label == SAVE => Confirm::Save,
        MessageDialogResult::Custom(label) if label == DISCARD => Confirm::Discard,
        _ => Confirm::Cancel,
    }
}

/// Tells the user something went wrong where the UI cannot (quitting, a menu action).
pub async fn error(window: &tauri::WebviewWindow, title: &str, message: &str) {
    if std::env::var_os(CONFIRM_VAR).is_some() {
        return;
    }
    AsyncMessageDialog::new()
        .set_level(MessageLevel::Error)
        .set_title(title)
        .set_description(message)
        .set_buttons(MessageButtons::Ok)
        .set_parent(window)
        .show()
        .await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn confirm_answers_parse() {
        assert_eq!(Confirm::parse("save"), Confirm::Save);
        assert_eq!(Confirm::parse(" Discard "), Confirm::Discard);
        assert_eq!(Confirm::parse("cancel"), Confirm::Cancel);
        assert_eq!(Confirm::parse("anything else"), Confirm::Cancel);
    }
}
