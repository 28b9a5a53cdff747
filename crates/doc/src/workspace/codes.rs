//! Diagnostic codes of the workspace.

/// No open document has that id.
pub const UNKNOWN_DOCUMENT: &str = "doc/unknown-document";
/// Closing was refused: the document has unsaved changes (ask the user first).
pub const UNSAVED_CHANGES: &str = "doc/unsaved-changes";
/// The recent-files list could not be read or written (it is rebuilt).
pub const RECENT_FAILED: &str = "doc/recent-failed";
/// A setting was refused (an empty Weaveflow version) or could not be saved.
pub const SETTINGS_FAILED: &str = "doc/settings-failed";
/// A recovery entry's document is already open.
pub const ALREADY_OPEN: &str = "doc/already-open";
/// Opening was stopped by the user while the document was read or laid out; nothing opened.
pub const OPEN_CANCELLED: &str = "doc/open-cancelled";
