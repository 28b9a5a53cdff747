//! The colours of a picture, light or dark, as the canvas draws them. They mirror the CSS
//! variables of `ui/src/styles.css` (`--bg`, `--fg`, `--node-bg`, ...) and the category
//! colours of `ui/src/lib/colors.ts`: change both together.

/// Which of the app's two themes a picture is drawn in (the UI resolves "follow the system"
/// to one of them before asking).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Theme {
    #[default]
    Light,
    Dark,
}

impl Theme {
    /// `light` or `dark` (any case); anything else is `None`.
    pub fn parse(s: &str) -> Option<Theme> {
        match s.trim().to_ascii_lowercase().as_str() {
            "light" => Some(Theme::Light),
            "dark" => Some(Theme::Dark),
            _ => None,
        }
    }

    pub fn palette(self) -> Palette {
        match self {
            Theme::Light => LIGHT,
            Theme::Dark => DARK,
        }
    }
}

/// Colours as SVG paint values (`#rrggbb`; opacities are separate attributes, since SVG 1.1
/// readers do not all take `rgba()`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Palette {
    /// The picture's background (`--bg`).
    pub background: &'static str,
    /// Names, types and labels (`--fg`).
    pub text: &'static str,
    /// Node cards and label plates (`--node-bg`).
    pub node: &'static str,
    /// Card outlines (`--border`).
    pub border: &'static str,
    /// The start and end marks (`--terminal`).
    pub terminal: &'static str,
    /// A plain edge (`--edge`) and its opacity.
    pub edge: &'static str,
    pub edge_opacity: f32,
    /// An edge with a condition or a label (`--edge-guarded`) and its opacity.
    pub guarded: &'static str,
    pub guarded_opacity: f32,
}

pub const LIGHT: Palette = Palette {
    background: "#f6f7f9",
    text: "#0f172a",
    node: "#ffffff",
    border: "#cbd5e1",
    terminal: "#334155",
    edge: "#64748b",
    edge_opacity: 0.75,
    guarded: "#d97706",
    guarded_opacity: 0.9,
};

pub const DARK: Palette = Palette {
    background: "#0b1020",
    text: "#e2e8f0",
    node: "#1a2338",
    border: "#24304a",
    terminal: "#cbd5e1",
    edge: "#94a3b8",
    edge_opacity: 0.7,
    guarded: "#fbbf24",
    guarded_opacity: 0.85,
};

/// A node without a known category (`UNKNOWN_COLOR` in colors.ts).
pub const UNKNOWN_COLOR: &str = "#94a3b8";

const KNOWN: &[(&str, &str)] = &[
    ("llm", "#7c5cff"),
    ("ai", "#7c5cff"),
    ("model", "#7c5cff"),
    ("tools", "#e08a00"),
    ("tool", "#e08a00"),
    ("io", "#0b8fd8"),
    ("http", "#0b8fd8"),
    ("integration", "#0b8fd8"),
    ("state", "#16a34a"),
    ("data", "#16a34a"),
    ("memory", "#0d9488"),
    ("retrieval", "#0d9488"),
    ("control", "#db2777"),
    ("control flow", "#db2777"),
    ("flow", "#db2777"),
    ("human", "#ca8a04"),
    ("evaluation", "#dc2626"),
    ("judge", "#dc2626"),
    ("utility", "#64748b"),
];

const HASHED: &[&str] = &[
    "#7c5cff", "#e08a00", "#0b8fd8", "#16a34a", "#db2777", "#0d9488", "#ca8a04", "#dc2626", "#9333ea",
    "#2563eb",
];

/// A category's colour: a fixed one for the built-in categories, otherwise the same FNV-1a
/// hash of the UTF-16 text the UI computes, so a node has its canvas colour in the picture.
pub fn category_color(category: Option<&str>) -> &'static str {
    let Some(c) = category.map(|c| c.trim().to_lowercase()).filter(|c| !c.is_empty()) else {
        return UNKNOWN_COLOR;
    };
    if let Some((_, color)) = KNOWN.iter().find(|(k, _)| *k == c) {
        return color;
    }
    let mut h: u32 = 2_166_136_261;
    for unit in c.encode_utf16() {
        h = (h ^ u32::from(unit)).wrapping_mul(16_777_619);
    }
    HASHED[h as usize % HASHED.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_get_the_canvas_colours() {
        assert_eq!(category_color(Some("LLM")), "#7c5cff");
        assert_eq!(category_color(None), UNKNOWN_COLOR);
        assert_eq!(category_color(Some("  ")), UNKNOWN_COLOR);
        // The UI's hash of "custom" (colors.ts): h = 0x811c9dc5, xor/multiply per UTF-16 unit.
        let mut h: u32 = 0x811c_9dc5;
        for u in "custom".encode_utf16() {
            h = (h ^ u32::from(u)).wrapping_mul(0x0100_0193);
        }
        assert_eq!(category_color(Some("Custom")), HASHED[h as usize % 10]);
    }

    #[test]
    fn themes_parse() {
        assert_eq!(Theme::parse("Dark"), Some(Theme::Dark));
        assert_eq!(Theme::parse("light"), Some(Theme::Light));
        assert_eq!(Theme::parse("system"), None);
        assert_ne!(Theme::Light.palette(), Theme::Dark.palette());
    }
}
