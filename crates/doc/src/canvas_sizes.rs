//! The sizes the canvas draws things at, which the automatic layout and the edge routes lay
//! out around and the picture export draws: a node's box, a terminal's circle, a label's
//! plate (`ui/src/lib/geometry.ts`, `ui/src/lib/shortLabel.ts`).

use trellis_layout::Size;

/// The canvas's node box.
pub const NODE: Size = Size { w: 200.0, h: 60.0 };
/// The canvas's terminal circle (`__start__`, `__end__`).
pub const TERMINAL: Size = Size { w: 44.0, h: 44.0 };

/// Characters of a label the canvas shows (longer ones end in "…"; the whole text is its
/// tooltip).
pub const LABEL_CHARS: usize = 42;

/// The plate a label is drawn on in the canvas (11 px monospace, 5 px padding each side, a
/// border), as wide as the text it shows.
pub fn label_size(text: &str) -> Size {
    let chars = text.chars().count().min(LABEL_CHARS) as f64;
    Size { w: (chars * 6.7 + 14.0).ceil(), h: 18.0 }
}
