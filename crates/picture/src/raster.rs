//! The SVG as PNG pixels (resvg, tiny-skia underneath), at a scale, within a pixel budget: a
//! 5,000-node graph is tens of thousands of units wide, and at scale 2 it would ask for a
//! picture of gigabytes. The budget lowers the scale until the picture fits, and says so.

use std::sync::{Arc, OnceLock};

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg::{self, fontdb};
use trellis_spec::Diagnostic;

use crate::codes;

/// How big a PNG may be.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PngOptions {
    /// Pixels per canvas unit (2 for sharp text on high-density screens).
    pub scale: f64,
    /// The longest side, in pixels (16,384 is what most viewers and browsers still open).
    pub max_side: u32,
    /// Width × height (40 megapixels = 160 MB of pixels while drawing).
    pub max_pixels: u64,
}

impl Default for PngOptions {
    fn default() -> Self {
        PngOptions { scale: 2.0, max_side: 16_384, max_pixels: 40_000_000 }
    }
}

/// The scales the app offers are within these bounds; anything else is brought into them.
pub const MIN_SCALE: f64 = 0.1;
pub const MAX_SCALE: f64 = 4.0;

/// A rasterised picture.
#[derive(Debug, Clone)]
pub struct Png {
    /// The encoded PNG file.
    pub bytes: Vec<u8>,
    pub width: u32,
    pub height: u32,
    /// The scale used (lower than asked when `capped`).
    pub scale: f64,
    /// The budget lowered the scale.
    pub capped: bool,
}

/// The pixel size of an SVG of `w` × `h` units at `options`: `(width, height, scale, capped)`.
/// Each side is rounded up and at least one pixel.
pub fn pixel_size(w: f64, h: f64, options: &PngOptions) -> (u32, u32, f64, bool) {
    let (w, h) = (w.max(1.0), h.max(1.0));
    let asked = if options.scale.is_finite() { options.scale.clamp(MIN_SCALE, MAX_SCALE) } else { 1.0 };
    let mut scale = asked;
    scale = scale.min(f64::from(options.max_side) / w.max(h));
    scale = scale.min((options.max_pixels as f64 / (w * h)).sqrt());
    let side = |v: f64| ((v * scale).ceil() as u32).clamp(1, options.max_side.max(1));
    let (pw, ph) = (side(w), side(h));
    (pw, ph, scale, scale < asked)
}

/// The fonts of this system, read once per process (the only file reading of this crate).
/// "sans-serif" and "monospace" are mapped to DejaVu when it is there (Debian's default, and
/// the first family our SVGs ask for), so text never falls back to nothing.
pub fn system_fonts() -> Arc<fontdb::Database> {
    static FONTS: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = fontdb::Database::new();
            db.load_system_fonts();
            let has = |db: &fontdb::Database, family: &str| {
                db.faces().any(|f| f.families.iter().any(|(name, _)| name == family))
            };
            if has(&db, "DejaVu Sans") {
                db.set_sans_serif_family("DejaVu Sans");
            }
            if has(&db, "DejaVu Sans Mono") {
                db.set_monospace_family("DejaVu Sans Mono");
            }
            Arc::new(db)
        })
        .clone()
}

/// Rasterises an SVG this crate wrote. Text is drawn with `fonts` (see [`system_fonts`]); a
/// system without any font draws the picture without its text rather than failing.
pub fn png(svg: &str, fonts: Arc<fontdb::Database>, options: &PngOptions) -> Result<Png, Diagnostic> {
    let failed =
        |why: String| Diagnostic::error(codes::RASTER_FAILED, format!("cannot draw the picture: {why}"));
    let opt = usvg::Options { fontdb: fonts, font_family: "DejaVu Sans".into(), ..usvg::Options::default() };
    let tree = usvg::Tree::from_str(svg, &opt).map_err(|e| failed(e.to_string()))?;
    let size = tree.size();
    let (w, h, scale, capped) = pixel_size(f64::from(size.width()), f64::from(size.height()), options);
    let mut pixmap =
        Pixmap::new(w, h).ok_or_else(|| failed(format!("{w} × {h} pixels is not a picture size")))?;
    let s = scale as f32;
    resvg::render(&tree, Transform::from_scale(s, s), &mut pixmap.as_mut());
    let bytes = encode(&pixmap).map_err(|e| failed(e.to_string()))?;
    Ok(Png { bytes, width: w, height: h, scale, capped })
}

/// The pixels as a PNG file: straight (not premultiplied) RGBA, fast compression. The default
/// compression took most of the time of a large picture for a file barely smaller.
fn encode(pixmap: &Pixmap) -> Result<Vec<u8>, png::EncodingError> {
    let mut rgba = Vec::with_capacity(pixmap.data().len());
    for p in pixmap.pixels() {
        let c = p.demultiply();
        rgba.extend_from_slice(&[c.red(), c.green(), c.blue(), c.alpha()]);
    }
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    encoder.set_filter(png::Filter::Up);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&rgba)?;
    writer.finish()?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_lowers_the_scale_and_says_so() {
        let o = PngOptions::default();
        assert_eq!(pixel_size(100.0, 50.0, &o), (200, 100, 2.0, false));
        let (w, h, s, capped) = pixel_size(40_000.0, 25_000.0, &o);
        assert!(capped && s < 2.0);
        assert!(u64::from(w) * u64::from(h) <= o.max_pixels + u64::from(w) + u64::from(h), "{w} × {h}");
        assert!(w <= o.max_side && h <= o.max_side);
        let (w, _, _, capped) = pixel_size(100_000.0, 10.0, &o);
        assert!(capped && w == o.max_side);
        // Scales outside the offered range are brought into it; nonsense is 1.
        assert_eq!(pixel_size(10.0, 10.0, &PngOptions { scale: 50.0, ..o }).2, MAX_SCALE);
        assert_eq!(pixel_size(10.0, 10.0, &PngOptions { scale: f64::NAN, ..o }).2, 1.0);
    }
}
