//! PNGs have the pixel size of the SVG times the scale, and show the text (fonts found).

use super::{open, svg};
use crate::{PngOptions, Scope, Theme};

/// Width and height read from the PNG file itself.
pub fn decoded_size(bytes: &[u8]) -> (u32, u32) {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let reader = decoder.read_info().expect("a PNG");
    let info = reader.info();
    (info.width, info.height)
}

/// The SVG's own `width` and `height`.
fn svg_size(svg: &str) -> (f64, f64) {
    let doc = roxmltree::Document::parse(svg).expect("xml");
    let r = doc.root_element();
    let n = |a: &str| r.attribute(a).and_then(|v| v.parse::<f64>().ok()).expect("a size");
    (n("width"), n("height"))
}

#[test]
fn the_png_has_the_svg_size_times_the_scale() {
    let text = trellis_doc::workspace::EXAMPLE;
    let s = open("support.json", text).expect("opens");
    let picture = svg(&s, &Scope::Whole, Theme::Light);
    let (w, h) = svg_size(&picture);
    for scale in [1.0, 2.0, 0.5] {
        let png = crate::png(&picture, crate::system_fonts(), &PngOptions { scale, ..PngOptions::default() })
            .expect("a png");
        assert!(!png.capped);
        let want = ((w * scale).ceil() as u32, (h * scale).ceil() as u32);
        assert_eq!(decoded_size(&png.bytes), want, "scale {scale}");
        assert_eq!((png.width, png.height), want);
    }
}

#[test]
fn text_is_drawn_with_a_system_font() {
    let fonts = crate::system_fonts();
    assert!(!fonts.is_empty(), "no font on this system (Debian: apt-get install fonts-dejavu-core)");
    // The same card with and without its name: the name changes pixels.
    let text = |name: &str| {
        let doc = serde_json::json!({"nodes": [{"id": name, "type": "noop"}], "edges": []}).to_string();
        let s = open("one.json", &doc).expect("opens");
        let picture = svg(&s, &Scope::Whole, Theme::Light);
        crate::png(&picture, fonts.clone(), &PngOptions { scale: 1.0, ..PngOptions::default() })
            .expect("png")
            .bytes
    };
    assert_ne!(text("WWWWWWWW"), text("iiiiiiii"), "the text reaches the pixels");
}
