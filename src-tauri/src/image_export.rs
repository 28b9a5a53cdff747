//! File > Export image: a picture of the open document, whole or its selection, in
//! the UI's theme, as SVG or PNG, written where the user chooses. The drawing is
//! `trellis-picture`'s; this file reads the request, asks for the path, rasterises off the
//! UI thread and writes atomically (never over the open document's own file).

use std::path::Path;

use serde::Serialize;
use tauri::{AppHandle, Manager, WebviewWindow};
use trellis_doc::fs::{atomic_write, FileSystem};
use trellis_picture::{PngOptions, Scene, Scope, Selection, Theme};
use trellis_spec::Diagnostic;
use ts_rs::TS;

use crate::commands::{codes, parse_id, CommandError};
use crate::dialogs;
use crate::state::AppState;
use crate::transfer;
use crate::view::file_name;

/// The picture formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageFormat {
    Svg,
    Png,
}

impl ImageFormat {
    pub fn parse(s: &str) -> Result<ImageFormat, Diagnostic> {
        match s.trim().to_ascii_lowercase().as_str() {
            "svg" => Ok(ImageFormat::Svg),
            "png" => Ok(ImageFormat::Png),
            other => Err(Diagnostic::error(
                codes::BAD_ARGUMENT,
                format!("unknown image format \"{other}\" (expected \"svg\" or \"png\")"),
            )),
        }
    }

    pub fn extension(self) -> &'static str {
        match self {
            ImageFormat::Svg => "svg",
            ImageFormat::Png => "png",
        }
    }
}

/// What Export image answers. `written: false` (and nothing else set) when the dialog was
/// cancelled.
#[derive(Debug, Clone, Default, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct ImageAnswer {
    pub written: bool,
    pub path: Option<String>,
    /// The file's size in bytes.
    #[ts(type = "number")]
    pub bytes: u64,
    /// `"svg"` or `"png"`.
    pub format: String,
    /// The picture's size: SVG units (= CSS pixels), or the PNG's pixels.
    pub width: u32,
    pub height: u32,
    /// PNG: the pixels per canvas unit used (lower than asked when `capped`); SVG: 1.
    pub scale: f64,
    /// PNG: the pixel budget lowered the scale (a very large graph).
    pub capped: bool,
    /// What the picture shows.
    #[ts(type = "number")]
    pub nodes: usize,
    #[ts(type = "number")]
    pub edges: usize,
}

/// A picture file's suggested name: the document's stem (`support.json` → `support.svg`), or
/// for an untitled document its graph's name.
pub fn suggested_name(current: &str, graph_name: Option<String>, format: ImageFormat) -> String {
    let named = if current == "Untitled" {
        crate::commands::suggested_name(current, graph_name)
    } else {
        current.to_owned()
    };
    let graph = transfer::suggested_name(&named, trellis_doc::DocFormat::GraphSpec);
    let stem = graph.strip_suffix(".json").unwrap_or(&graph);
    format!("{stem}.{}", format.extension())
}

fn scene_title(s: &trellis_doc::Session) -> Option<String> {
    s.spec().and_then(|g| g.name.clone())
}

/// The picture's bytes and what the answer says of it (path and size filled by the caller).
pub fn draw(
    scene: &Scene,
    theme: Theme,
    format: ImageFormat,
    scale: Option<f64>,
) -> Result<(Vec<u8>, ImageAnswer), Diagnostic> {
    let svg = trellis_picture::svg::render(scene, &theme.palette());
    let mut answer = ImageAnswer {
        format: format.extension().into(),
        nodes: scene.node_count(),
        edges: scene.wires.len(),
        scale: 1.0,
        ..ImageAnswer::default()
    };
    match format {
        ImageFormat::Svg => {
            let f = trellis_picture::svg::frame(scene);
            (answer.width, answer.height) = (f.w.ceil() as u32, f.h.ceil() as u32);
            Ok((svg.into_bytes(), answer))
        }
        ImageFormat::Png => {
            let options =
                PngOptions { scale: scale.unwrap_or(PngOptions::default().scale), ..PngOptions::default() };
            let png = trellis_picture::png(&svg, trellis_picture::system_fonts(), &options)?;
            (answer.width, answer.height, answer.scale, answer.capped) =
                (png.width, png.height, png.scale, png.capped);
            Ok((png.bytes, answer))
        }
    }
}

/// Writes the picture at `target` atomically, never over `source` (the open document).
pub fn write(
    fs: &dyn FileSystem,
    source: Option<&Path>,
    target: &Path,
    bytes: &[u8],
) -> Result<(), Diagnostic> {
    let same = |a: &Path, b: &Path| {
        a == b || matches!((fs.canonicalize(a), fs.canonicalize(b)), (Ok(x), Ok(y)) if x == y)
    };
    if source.is_some_and(|s| same(s, target)) {
        return Err(Diagnostic::error(
            transfer::codes::OVER_SOURCE,
            format!("{} is the open document itself: save the picture in another file", target.display()),
        ));
    }
    atomic_write(fs, target, bytes, 0o644).map(|_| ()).map_err(|e| {
        Diagnostic::error(transfer::codes::WRITE_FAILED, format!("cannot write {}: {e}", target.display()))
    })
}

/// The whole graph when nothing is named, else the selection named.
pub fn scope(nodes: Option<Vec<String>>, notes: Option<Vec<String>>, groups: Option<Vec<String>>) -> Scope {
    if nodes.is_none() && notes.is_none() && groups.is_none() {
        return Scope::Whole;
    }
    Scope::Selection(Selection {
        nodes: nodes.unwrap_or_default(),
        notes: notes.unwrap_or_default(),
        groups: groups.unwrap_or_default(),
    })
}

/// Export image: `format` `"svg"` or `"png"`; `theme` `"light"` or `"dark"` (the UI's current
/// one); `nodes`, `notes`, `groups`: the selection to draw (the whole graph when all are
/// absent; a selected group brings its members, a frame is drawn for every group a drawn
/// member is in); `scale`: PNG pixels per
/// canvas unit (2 when absent; within 0.1–4, and lowered to keep the picture within 40
/// megapixels). Asks where to save (a native dialog), then draws and writes.
#[tauri::command]
// A command's arguments are the IPC call's named fields, one parameter each.
#[allow(clippy::too_many_arguments)]
pub async fn export_image(
    app: AppHandle,
    window: WebviewWindow,
    doc_id: String,
    format: String,
    theme: String,
    nodes: Option<Vec<String>>,
    notes: Option<Vec<String>>,
    groups: Option<Vec<String>>,
    scale: Option<f64>,
) -> Result<ImageAnswer, CommandError> {
    let id = parse_id(&doc_id)?;
    let format = ImageFormat::parse(&format)?;
    let theme = Theme::parse(&theme).ok_or_else(|| {
        Diagnostic::error(
            codes::BAD_ARGUMENT,
            format!("unknown theme \"{theme}\" (expected \"light\" or \"dark\")"),
        )
    })?;
    let scope = scope(nodes, notes, groups);
    let state = app.state::<AppState>();
    // The picture is of the document as it is now, whatever happens while the dialog is open.
    let (scene, source, suggested, fs) = {
        let ws = state.ws();
        let s = ws.session(id)?;
        (
            Scene::of(s, &scope)?,
            s.path().map(Path::to_path_buf),
            suggested_name(&file_name(s), scene_title(s), format),
            ws.fs().clone(),
        )
    };
    let Some(target) = dialogs::pick_image_path(&window, &suggested, format.extension()).await else {
        return Ok(ImageAnswer::default());
    };
    // Drawing a large graph takes seconds: not on the thread that answers the UI.
    let done = tauri::async_runtime::spawn_blocking(move || -> Result<ImageAnswer, Diagnostic> {
        let (bytes, mut answer) = draw(&scene, theme, format, scale)?;
        write(fs.as_ref(), source.as_deref(), &target, &bytes)?;
        answer.written = true;
        answer.path = Some(target.display().to_string());
        answer.bytes = bytes.len() as u64;
        Ok(answer)
    })
    .await
    .map_err(|e| {
        Diagnostic::error(trellis_picture::codes::RASTER_FAILED, format!("the picture was not drawn: {e}"))
    })?;
    Ok(done?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use trellis_doc::fs::RealFs;
    use trellis_doc::{DocId, Registries, Session, SystemClock};

    fn example() -> Session {
        let registries = Registries::new(trellis_spec::builtin::default_registry());
        let mut s = Session::from_text(
            DocId(1),
            None,
            trellis_doc::workspace::EXAMPLE,
            registries,
            Arc::new(SystemClock),
        )
        .expect("the example opens");
        s.lay_out_if_missing();
        s
    }

    #[test]
    fn formats_and_names() {
        assert_eq!(ImageFormat::parse("SVG").ok(), Some(ImageFormat::Svg));
        assert_eq!(ImageFormat::parse("jpeg").err().map(|d| d.code), Some(codes::BAD_ARGUMENT.to_string()));
        assert_eq!(suggested_name("support.json", None, ImageFormat::Png), "support.png");
        assert_eq!(suggested_name("triage.graph.md", None, ImageFormat::Svg), "triage.svg");
        assert_eq!(suggested_name("GRAPH.md", None, ImageFormat::Svg), "graph.svg");
        assert_eq!(suggested_name("Untitled", None, ImageFormat::Png), "untitled.png");
        assert_eq!(
            suggested_name("Untitled", Some("support-agent".into()), ImageFormat::Svg),
            "support-agent.svg"
        );
    }

    #[test]
    fn both_formats_are_written_and_never_over_the_document() {
        let dir = tempfile::tempdir().expect("tmp");
        let scene = Scene::of(&example(), &Scope::Whole).expect("scene");
        for format in [ImageFormat::Svg, ImageFormat::Png] {
            let (bytes, answer) = draw(&scene, Theme::Dark, format, Some(1.0)).expect("drawn");
            assert!(answer.nodes > 3 && answer.width > 0 && answer.height > 0);
            let target = dir.path().join(format!("out.{}", format.extension()));
            write(&RealFs, None, &target, &bytes).expect("written");
            assert_eq!(std::fs::read(&target).expect("read"), bytes);
        }
        let source = dir.path().join("support.json");
        std::fs::write(&source, "{}").expect("write");
        let refused = write(&RealFs, Some(&source), &dir.path().join(".").join("support.json"), b"<svg/>");
        assert_eq!(refused.err().map(|d| d.code), Some(transfer::codes::OVER_SOURCE.to_string()));
        assert_eq!(std::fs::read_to_string(&source).expect("read"), "{}");
    }
}
