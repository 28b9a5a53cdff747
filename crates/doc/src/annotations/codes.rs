//! Diagnostic codes of note and group edits.

/// An edit named a note that does not exist.
pub const UNKNOWN_NOTE: &str = "doc/unknown-note";
/// An edit named a group that does not exist.
pub const UNKNOWN_GROUP: &str = "doc/unknown-group";
/// A note or group edit with a bad value (size, colour, empty group, nesting cycle).
pub const BAD_ANNOTATION: &str = "doc/bad-annotation";
