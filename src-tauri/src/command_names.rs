// The app's command names: the one list. build.rs `include!`s this file to give each command an
// `allow-<command>` permission, and lib.rs re-exports it for the test that compares it with
// capabilities/main-window.json. Plain items only: build.rs compiles it on its own.

/// Every command the webview may call.
pub const COMMANDS: &[&str] = &[
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
    "weaveflow_version",
    "set_weaveflow_version",
    "export_document",
    "import_document",
    "open_failures",
    "layout_document",
    "cancel_layout",
    "apply_fix",
    "registry_sources",
    "edit_registry",
    "undo_registry_edit",
    "open_subgraph",
    "export_image",
];
