//! Group frames, notes and collapsed groups' boxes in the SVG, drawn as the canvas draws them
//! (ui/src/annotations/annotations.css): a frame is a rounded rectangle in the group's fill
//! with a title bar in its line colour holding the name and the member count; a note is a box
//! in its colours with a grip strip and its Markdown as plain lines, clipped to the box; a
//! collapsed group is a 200 × 60 box with its name and "N members". Every text is escaped; the
//! full name or note text is the element's `<title>`.

use std::fmt::Write;

use crate::annotations::{Frame, NoteBox, Tint};
use crate::markdown::plain_lines;
use crate::scene::{Item, Scene};
use crate::xml::{escape_into, num, shorten};

const FRAME_TITLE_H: f64 = 26.0;
const FRAME_NAME_SIZE: f64 = 13.0;
const COUNT_SIZE: f64 = 11.0;
const NOTE_SIZE: f64 = 13.0;
/// The note body's line height (13px at 1.35) and its insets (grip strip, padding).
const NOTE_LINE: f64 = 13.0 * 1.35;
const NOTE_GRIP: f64 = 10.0;
const NOTE_PAD_X: f64 = 10.0;
const NOTE_PAD_TOP: f64 = 4.0;
const NOTE_PAD_BOTTOM: f64 = 8.0;
/// Average advance of the sans font, in em (DejaVu Sans is about 0.55 for running text).
const SANS_EM: f64 = 0.55;
/// The note text's colour (`.an-note`), the box's (`.gb`), on the light fills in both themes.
const NOTE_TEXT: &str = "#1f2937";
const BOX_TEXT: &str = "#0f172a";
const BOX_COUNT: &str = "#334155";

fn paint(out: &mut String, t: &Tint) {
    let _ = write!(out, "fill=\"{}\"", t.fill);
    if t.fill_opacity < 1.0 {
        let _ = write!(out, " fill-opacity=\"{}\"", t.fill_opacity);
    }
    let _ = write!(out, " stroke=\"{}\"", t.line);
}

/// Frames, outer ones first, under everything else.
pub fn frames(out: &mut String, scene: &Scene) {
    if scene.frames.is_empty() {
        return;
    }
    out.push_str("<g class=\"groups\">\n");
    for f in &scene.frames {
        frame(out, f);
    }
    out.push_str("</g>\n");
}

fn frame(out: &mut String, f: &Frame) {
    out.push_str("<g class=\"group\" data-id=\"");
    escape_into(out, &f.id);
    out.push_str("\"><title>");
    escape_into(out, &f.name);
    out.push_str("</title>");
    let _ = write!(
        out,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"10\" stroke-width=\"2\" ",
        num(f.x + 1.0),
        num(f.y + 1.0),
        num(f.w - 2.0),
        num(f.h - 2.0)
    );
    paint(out, &f.tint);
    out.push_str("/>");
    // The title bar: rounded at the top only (a rounded rectangle with its lower half squared).
    let (x, y, w) = (f.x + 2.0, f.y + 2.0, (f.w - 4.0).max(0.0));
    let _ = write!(
        out,
        "<path d=\"M{x0} {y1}V{y0r}Q{x0} {y0} {x0r} {y0}H{x1r}Q{x1} {y0} {x1} {y0r}V{y1}Z\" fill=\"{line}\"/>",
        x0 = num(x),
        x1 = num(x + w),
        y0 = num(y),
        y1 = num(y + FRAME_TITLE_H),
        x0r = num(x + 7.0),
        x1r = num(x + w - 7.0),
        y0r = num(y + 7.0),
        line = f.tint.line,
    );
    let count = f.count.to_string();
    let pill_w = count.len() as f64 * COUNT_SIZE * 0.62 + 12.0;
    let name_room = ((w - pill_w - 24.0) / (FRAME_NAME_SIZE * 0.62)).floor().max(1.0) as usize;
    let base = y + FRAME_TITLE_H / 2.0;
    let _ = write!(
        out,
        "<text class=\"group-name\" x=\"{}\" y=\"{}\" font-size=\"{FRAME_NAME_SIZE}\" font-weight=\"bold\" fill=\"#ffffff\">",
        num(x + 8.0),
        num(base + FRAME_NAME_SIZE * 0.35)
    );
    escape_into(out, &shorten(&f.name, name_room));
    let _ = writeln!(
        out,
        "</text><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"16\" rx=\"8\" fill=\"#000000\" fill-opacity=\"0.2\"/>\
         <text class=\"group-count\" x=\"{}\" y=\"{}\" font-size=\"{COUNT_SIZE}\" fill=\"#ffffff\" text-anchor=\"middle\">{count}</text></g>",
        num(x + w - 6.0 - pill_w),
        num(base - 8.0),
        num(pill_w),
        num(x + w - 6.0 - pill_w / 2.0),
        num(base + COUNT_SIZE * 0.35),
    );
}

/// Notes, over the frames and under the edges.
pub fn notes(out: &mut String, scene: &Scene) {
    if scene.notes.is_empty() {
        return;
    }
    let _ = writeln!(out, "<g class=\"notes\" font-size=\"{NOTE_SIZE}\">");
    for (k, n) in scene.notes.iter().enumerate() {
        note(out, k, n);
    }
    out.push_str("</g>\n");
}

fn note(out: &mut String, k: usize, n: &NoteBox) {
    let (x, y, w, h) = (n.x, n.y, n.w.max(0.0), n.h.max(0.0));
    out.push_str("<g class=\"note\" data-id=\"");
    escape_into(out, &n.id);
    out.push_str("\"><title>");
    escape_into(out, &n.text);
    let _ = write!(
        out,
        "</title><clipPath id=\"note-clip-{k}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/></clipPath>\
         <rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"4\" ",
        num(x + 1.0),
        num(y + NOTE_GRIP),
        num((w - 2.0).max(0.0)),
        num((h - NOTE_GRIP - 1.0).max(0.0)),
        num(x),
        num(y),
        num(w),
        num(h),
    );
    paint(out, &n.tint);
    let _ = write!(
        out,
        "/><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{NOTE_GRIP}\" fill=\"#000000\" fill-opacity=\"0.06\"/>",
        num(x + 0.5),
        num(y + 0.5),
        num((w - 1.0).max(0.0)),
    );
    let columns = ((w - 2.0 * NOTE_PAD_X) / (NOTE_SIZE * SANS_EM)).floor().max(1.0) as usize;
    let room = ((h - NOTE_GRIP - NOTE_PAD_TOP - NOTE_PAD_BOTTOM) / NOTE_LINE).floor().max(0.0) as usize;
    let lines = plain_lines(&n.text, columns, room);
    if !lines.is_empty() {
        let _ =
            write!(out, "<text class=\"note-text\" fill=\"{NOTE_TEXT}\" clip-path=\"url(#note-clip-{k})\">");
        let tx = num(x + NOTE_PAD_X);
        for (i, l) in lines.iter().enumerate() {
            let ly = y + NOTE_GRIP + NOTE_PAD_TOP + NOTE_LINE * (i as f64) + NOTE_SIZE;
            let _ = write!(out, "<tspan x=\"{tx}\" y=\"{}\"", num(ly));
            if l.bold {
                out.push_str(" font-weight=\"bold\"");
            }
            // Leading spaces (list indents) are kept.
            out.push_str(" xml:space=\"preserve\">");
            escape_into(out, &l.text);
            out.push_str("</tspan>");
        }
        out.push_str("</text>");
    }
    out.push_str("</g>\n");
}

/// Collapsed groups' boxes, with the node cards.
pub fn boxes(out: &mut String, scene: &Scene) {
    let mut any = false;
    for item in &scene.items {
        let Some(b) = &item.group else { continue };
        if !any {
            out.push_str("<g class=\"group-boxes\">\n");
            any = true;
        }
        one_box(out, item, &b.name, b.count, &b.tint);
    }
    if any {
        out.push_str("</g>\n");
    }
}

fn one_box(out: &mut String, item: &Item, name: &str, count: usize, tint: &Tint) {
    out.push_str("<g class=\"group-box\" data-id=\"");
    escape_into(out, &item.id);
    out.push_str("\"><title>");
    escape_into(out, name);
    let _ = write!(
        out,
        "</title><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"10\" stroke-width=\"2\" ",
        num(item.x + 1.0),
        num(item.y + 1.0),
        num(item.w - 2.0),
        num(item.h - 2.0)
    );
    paint(out, tint);
    let members = format!("{count} members");
    let count_w = members.chars().count() as f64 * 12.0 * SANS_EM;
    let name_room = ((item.w - 36.0 - count_w) / (14.0 * 0.62)).floor().max(1.0) as usize;
    let base = item.y + item.h / 2.0;
    let _ = write!(
        out,
        "/><text x=\"{}\" y=\"{}\" font-size=\"14\" fill=\"{}\">▸</text>\
         <text class=\"group-box-name\" x=\"{}\" y=\"{}\" font-size=\"14\" font-weight=\"bold\" fill=\"{BOX_TEXT}\">",
        num(item.x + 10.0),
        num(base + 5.0),
        tint.line,
        num(item.x + 28.0),
        num(base + 5.0),
    );
    escape_into(out, &shorten(name, name_room));
    let _ = writeln!(
        out,
        "</text><text class=\"group-box-count\" x=\"{}\" y=\"{}\" font-size=\"12\" fill=\"{BOX_COUNT}\" text-anchor=\"end\">{members}</text></g>",
        num(item.x + item.w - 10.0),
        num(base + 4.0),
    );
}
