//! What a note or group may hold: the palette, a note's sizes and text length, finite points;
//! and the refusals that say what is wrong.

use trellis_spec::Diagnostic;

use super::codes;
use crate::edit::Position;

/// A note's size when none is given, and the smallest it can be.
pub const NOTE_WIDTH: f64 = 240.0;
pub const NOTE_HEIGHT: f64 = 160.0;
pub const NOTE_MIN: f64 = 40.0;
/// The longest note text kept (in bytes): a note is a note, not a document.
pub const NOTE_TEXT_MAX: usize = 100_000;
/// The colours a note or group may have: a name of the app's palette or `#rrggbb`.
pub const PALETTE: [&str; 9] = ["yellow", "orange", "red", "pink", "purple", "blue", "teal", "green", "gray"];

pub(super) fn refuse(code: &str, message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(code, message)
}

pub(super) fn unknown_note(id: &str) -> Diagnostic {
    refuse(codes::UNKNOWN_NOTE, format!("there is no note \"{id}\""))
}

pub(super) fn unknown_group(id: &str) -> Diagnostic {
    refuse(codes::UNKNOWN_GROUP, format!("there is no group \"{id}\""))
}

/// A colour of the palette or `#rrggbb`.
pub fn check_color(color: &str) -> Result<(), Diagnostic> {
    let hex = color.len() == 7 && color.starts_with('#') && color[1..].bytes().all(|b| b.is_ascii_hexdigit());
    if hex || PALETTE.contains(&color) {
        Ok(())
    } else {
        Err(refuse(
            codes::BAD_ANNOTATION,
            format!("\"{color}\" is not a colour here (one of {} or #rrggbb)", PALETTE.join(", ")),
        ))
    }
}

pub(super) fn check_point(what: &str, p: &Position) -> Result<(), Diagnostic> {
    if p.x.is_finite() && p.y.is_finite() {
        Ok(())
    } else {
        Err(refuse(codes::BAD_ANNOTATION, format!("the position of {what} is not a pair of finite numbers")))
    }
}

pub(super) fn check_size(what: &str, w: f64, h: f64) -> Result<(), Diagnostic> {
    if w.is_finite() && h.is_finite() && w >= NOTE_MIN && h >= NOTE_MIN && w <= 1e6 && h <= 1e6 {
        Ok(())
    } else {
        Err(refuse(
            codes::BAD_ANNOTATION,
            format!("the size of {what} must be between {NOTE_MIN} and 1000000"),
        ))
    }
}

pub(super) fn check_text(text: &str) -> Result<(), Diagnostic> {
    if text.len() > NOTE_TEXT_MAX {
        return Err(refuse(
            codes::BAD_ANNOTATION,
            format!("a note holds at most {NOTE_TEXT_MAX} bytes of text"),
        ));
    }
    Ok(())
}
