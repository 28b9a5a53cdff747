//! Tauri's build step. The app's commands are declared here, so each one gets an
//! `allow-<command>` permission and the webview may call only what
//! `capabilities/main-window.json` grants (the list must match `COMMANDS` in src/lib.rs; a
//! test checks it).
fn main() {
    const COMMANDS: &[&str] = &[
        "list_documents",
        "get_document",
        "set_active_document",
        "apply_edit",
        "undo",
        "redo",
        "save_document",
        "save_document_as",
        "new_document",
        "open_document_dialog",
        "recent_files",
        "open_recent",
        "close_document",
        "registry_types",
        "journal_pending",
        "restore",
        "discard",
        "resolve_conflict",
        "quit",
    ];
    let attributes =
        tauri_build::Attributes::new().app_manifest(tauri_build::AppManifest::new().commands(COMMANDS));
    if let Err(e) = tauri_build::try_build(attributes) {
        panic!("tauri build step failed: {e:#}");
    }
}
