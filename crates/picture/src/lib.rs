//! trellis-picture: pictures of Trellis graphs (File > Export image).
//!
//! [`Scene::of`] reads what the canvas draws of an open document (boxes at their positions,
//! edges with their labels, start and end marks, group frames, collapsed groups, notes), whole
//! or a selection; [`svg::render`] writes
//! it as a self-contained SVG in a theme's colours; [`raster::png`] rasterises that SVG with
//! resvg at a scale, within a pixel budget. No Tauri, and no I/O except reading the system
//! fonts the PNG's text needs ([`raster::system_fonts`]).

#![forbid(unsafe_code)]

pub mod annotations;
pub mod markdown;
pub mod raster;
pub mod scene;
pub mod svg;
mod svg_annotations;
pub mod theme;
pub mod xml;

pub use raster::{png, system_fonts, Png, PngOptions};
pub use scene::{BoxInfo, Item, Mark, Scene, Scope, Selection, Wire};
pub use theme::{Palette, Theme};

/// Codes of a picture's refusals (listed in docs/diagnostics.md).
pub mod codes {
    /// A selection that names nothing of the document to draw (no node, note or group).
    pub const EMPTY_SELECTION: &str = "picture/empty-selection";
    /// The SVG could not be rasterised (a bug: our SVG is always readable).
    pub const RASTER_FAILED: &str = "picture/raster-failed";
}

#[cfg(test)]
mod tests;
