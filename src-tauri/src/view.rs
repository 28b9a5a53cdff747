//! What crosses IPC to the UI, besides the `Edit`s it sends: the [`DocumentView`] of an open
//! document and the answers of commands. TypeScript types are generated with ts-rs
//! (`cargo test -p trellis-app export_bindings` with `TS_RS_EXPORT_DIR` set, see
//! `scripts/bindings.sh`), never written twice.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::Serialize;
use tauri::ipc::Response;
use tauri::{AppHandle, Emitter, Manager, WebviewWindow};
pub use trellis_doc::view::{file_name, id_string, DocumentView, Notice};
use trellis_doc::{Session, ViewDelta};
use trellis_spec::Diagnostic;
use ts_rs::TS;

/// A tab: what `list_documents` answers, in tab order.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct DocumentSummary {
    pub id: String,
    pub file_name: String,
    pub dirty: bool,
}

/// What Save and Save As answer. A refusal is `saved: false` with the reasons in
/// `diagnostics` (shown in the problems panel); a cancelled Save As dialog is `saved: false`
/// with no diagnostics. The file is untouched unless `saved` is true.
///
/// A save does not change the document: what changed in its view (dirty, the reading's
/// findings, notices, the layout file) comes as a `delta`, as an edit's answer does. The whole
/// `view` comes instead when more changed: the file (Save As) or a conflict.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct SaveAnswer {
    pub saved: bool,
    pub view: Option<DocumentView>,
    pub delta: Option<ViewDelta>,
    pub diagnostics: Vec<Diagnostic>,
    /// True when the refusal is a conflict with a change made outside Trellis.
    pub conflict: bool,
    /// The save rewrote a hand-formatted file in canonical form: how many of its lines changed
    /// for that reason alone (the UI says so once, on that save).
    #[ts(type = "number | null")]
    pub reformatted_lines: Option<u64>,
    /// The layout file this save created beside the document (announced: it is a new file to
    /// commit with the document), if it did.
    pub new_layout_file: Option<String>,
}

impl SaveAnswer {
    /// An answer that saved nothing: what changed in the view since the findings were
    /// `before`, or the whole view when the refusal is a conflict (the view then holds it).
    pub fn not_saved(
        session: &Session,
        before: &[Diagnostic],
        diagnostics: Vec<Diagnostic>,
        conflict: bool,
    ) -> SaveAnswer {
        let (view, delta) = match conflict {
            true => (Some(document_view(session)), None),
            false => (None, Some(worded(session.delta_since(before)))),
        };
        SaveAnswer {
            saved: false,
            view,
            delta,
            diagnostics,
            conflict,
            reformatted_lines: None,
            new_layout_file: None,
        }
    }
}

/// One entry of the recent-files list. The UI opens it by `index` (never by path).
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct RecentFile {
    #[ts(type = "number")]
    pub index: usize,
    pub path: String,
    pub file_name: String,
}

/// A document's view as the app shows it: diagnostics in the editor's words (the CLI keeps
/// the checkers').
pub fn document_view(session: &Session) -> DocumentView {
    in_editor_words(DocumentView::of(session))
}

fn in_editor_words(mut view: DocumentView) -> DocumentView {
    view.diagnostics =
        std::mem::take(&mut view.diagnostics).into_iter().map(crate::wording::for_editor).collect();
    view
}

/// Views whose spec text is at least this large go to the page as a script when the page
/// asks for that (below it the two ways cost the same).
const SCRIPT_FROM_BYTES: usize = 1 << 20;
/// The function the page defines to take a view handed over as a script
/// (ui/src/api/delivery.ts).
const RECEIVER: &str = "__TRELLIS_DELIVER__";
/// The key of the small answer that stands for a view handed over as a script.
pub const DELIVERY_KEY: &str = "__trellisDelivery";
/// Numbers the views handed over as scripts, so that the page matches each one to its answer.
static NEXT_DELIVERY: AtomicU64 = AtomicU64::new(1);

/// A large view handed over as a script: its number and the script.
#[derive(Debug)]
struct Script {
    delivery: u64,
    text: String,
}

/// Writes `head`, then `answer`'s JSON, once, into a buffer of `capacity` bytes (about what
/// will be written in all). Tauri's own answer writes into a string that grows by doubling,
/// copying the text again at each step into fresh memory, which a VM of this kind is slow to
/// hand out the first time.
fn write_after<T: Serialize>(head: &str, answer: &T, capacity: usize) -> serde_json::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(capacity);
    out.extend_from_slice(head.as_bytes());
    serde_json::to_writer(&mut out, answer)?;
    Ok(out)
}

/// About how long a view's JSON is: its spec, plus about an eighth for positions, labels and
/// findings.
fn view_capacity(session: &Session) -> usize {
    let spec = trellis_doc::view::spec_json_len(session);
    spec + spec / 8 + 4096
}

/// The view of `session` as the command's answer (JSON the page parses).
fn answer_json(session: &Session) -> serde_json::Result<String> {
    write_after("", &document_view(session), view_capacity(session)).map(utf8)
}

/// The view of `session` as a script for the page, when it is large (`None` otherwise):
/// `window.__TRELLIS_DELIVER__([n, <the view, its spec null>, <the spec>])`. JSON text is a
/// JavaScript literal of the same value, and the page reads a 34 MB view 100-250 ms sooner that
/// way than as an answer (carried through WebKit's URI scheme handler, then parsed again;
/// docs/BENCHMARKS.md). The spec's text is written straight into the script from the session's
/// model, apart from the rest of the view, so the view holds no copy of it (27 MB at 100,000
/// nodes, in fresh memory). The one place the two readings differ is a `"__proto__"` key (a
/// literal sets the prototype, `JSON.parse` an own member): a view holding that text anywhere
/// is not sent as a script (`None`).
fn write_script(session: &Session) -> serde_json::Result<Option<Script>> {
    if trellis_doc::view::spec_json_len(session) < SCRIPT_FROM_BYTES {
        return Ok(None);
    }
    let Some((delivery, mut out)) = view_script_start(session, view_capacity(session))? else {
        return Ok(None);
    };
    let spec_at = out.len();
    trellis_doc::view::write_spec_json(session, &mut out);
    if memchr::memmem::find(&out[spec_at..], b"\"__proto__\"").is_some() {
        return Ok(None);
    }
    out.extend_from_slice(b"])");
    Ok(Some(Script { delivery, text: utf8(out) }))
}

/// The start of a view's script, up to where its spec goes:
/// `window.__TRELLIS_DELIVER__([n, <the view, its spec null>,`, with the delivery's number `n`
/// (`capacity`: about what the whole script will take); `None` when the view holds
/// `"__proto__"`.
fn view_script_start(session: &Session, capacity: usize) -> serde_json::Result<Option<(u64, Vec<u8>)>> {
    let delivery = NEXT_DELIVERY.fetch_add(1, Ordering::Relaxed);
    // One call of a property path with one JSON argument: the form JavaScriptCore reads with
    // its JSON parser (its JSONP path). Anything else (a guard such as `f && f(..)`, a second
    // argument) goes through the full script compiler: 3.4 s instead of 0.4 for 34 MB.
    let head = format!("window.{RECEIVER}([{delivery},");
    let view = in_editor_words(DocumentView::without_spec(session));
    let mut out = write_after(&head, &view, head.len() + capacity)?;
    if memchr::memmem::find(&out[head.len()..], b"\"__proto__\"").is_some() {
        return Ok(None);
    }
    out.push(b',');
    Ok(Some((delivery, out)))
}

/// What a command answers in place of a view handed over as a script (an event carries the
/// same object).
fn delivery_marker(delivery: u64) -> String {
    format!("{{\"{DELIVERY_KEY}\":{delivery}}}")
}

/// serde_json writes UTF-8 only (and the head and tail are ASCII).
fn utf8(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Runs `session`'s view as a script in `window`'s page when it is large ([`write_script`]):
/// the delivery's number, or `None` when the view goes another way (small, holding
/// `"__proto__"`, or a window that cannot run a script any more: closing). A document opened
/// and not changed since goes in parts ([`write_in_parts`]).
pub fn hand_over(session: &Session, window: &WebviewWindow) -> serde_json::Result<Option<u64>> {
    if let Some(delivery) = write_in_parts(session, PART_ELEMENTS, &mut |script| window.eval(script).is_ok())?
    {
        return Ok(Some(delivery));
    }
    let Some(script) = write_script(session)? else { return Ok(None) };
    Ok(window.eval(script.text).ok().map(|()| script.delivery))
}

/// The function the page defines to take the parts of a spec handed over in parts.
const PART_RECEIVER: &str = "__TRELLIS_PART__";
/// How many nodes or edges go in one part.
const PART_ELEMENTS: usize = 10_000;

/// Hands a large GraphSpec view over in parts (`send` runs each script in the page, and answers
/// whether it could), each a script the page reads as soon as it comes while the next is
/// written: `window.__TRELLIS_PART__([n, "nodes" | "edges", [...]])` for every
/// 10,000 nodes, then edges, then the view's script as [`write_script`] writes it with the
/// spec's lists empty (the page puts the parts in them: ui/src/api/delivery.ts). Written whole,
/// a 100,000-node view cost 70-200 ms of writing before the page could start on it, and 34 MB
/// of fresh memory.
///
/// Only for a document unchanged since it was read whose text has neither `__proto__` nor an
/// escape (which could spell it): no part can then hold that key, which a script's literal
/// reads as setting a prototype (`None` otherwise: the view goes whole).
fn write_in_parts(
    session: &Session,
    elements: usize,
    send: &mut dyn FnMut(String) -> bool,
) -> serde_json::Result<Option<u64>> {
    let (Some(spec), Some(source)) = (session.spec(), session.source_as_read()) else { return Ok(None) };
    if source.len() < SCRIPT_FROM_BYTES
        || memchr::memmem::find(source.as_bytes(), b"__proto__").is_some()
        || memchr::memmem::find(source.as_bytes(), b"\\u").is_some()
    {
        return Ok(None);
    }
    // The view's own script first (the rest of the view could hold the key): sent last.
    let Some((delivery, mut last)) = view_script_start(session, view_capacity(session) / 4)? else {
        return Ok(None);
    };
    trellis_spec::writer::write_compact_head(spec, &mut last);
    last.extend_from_slice(b",\"nodes\":[],\"edges\":[]}])");
    let mut part = |key: &str, write: &dyn Fn(&mut Vec<u8>)| -> bool {
        let mut out = Vec::with_capacity(4 << 20);
        out.extend_from_slice(format!("window.{PART_RECEIVER}([{delivery},\"{key}\",").as_bytes());
        write(&mut out);
        out.extend_from_slice(b"])");
        send(utf8(out))
    };
    let nodes = spec.nodes.chunks(elements.max(1)).all(|chunk| {
        part("nodes", &|out: &mut Vec<u8>| trellis_spec::writer::write_compact_nodes(chunk, out))
    });
    let edges = nodes
        && spec.edges.chunks(elements.max(1)).all(|chunk| {
            part("edges", &|out: &mut Vec<u8>| trellis_spec::writer::write_compact_edges(chunk, out))
        });
    Ok((edges && send(utf8(last))).then_some(delivery))
}

/// The answer of a command whose view was handed over ([`hand_over`]) before the document was
/// checked (`trellis_doc::Opening`): the delivery's number and the view's findings now that it
/// is, which take the place of the view's own (the page puts them in before it shows the view:
/// ui/src/api/delivery.ts).
pub fn checked_delivery(delivery: u64, session: &Session) -> Result<Response, Diagnostic> {
    let diagnostics: Vec<Diagnostic> =
        trellis_doc::view::diagnostics_of(session).into_iter().map(crate::wording::for_editor).collect();
    let answer = serde_json::json!({ DELIVERY_KEY: delivery, "diagnostics": diagnostics });
    Ok(Response::new(answer.to_string()))
}

/// The answer of a command that sends `session`'s whole view (open, get). `by_script`: the
/// window whose page asked for a large view as a script ([`hand_over`]), if it did.
pub fn answer_view(session: &Session, by_script: Option<&WebviewWindow>) -> Result<Response, Diagnostic> {
    let failed = |e: serde_json::Error| {
        Diagnostic::error(crate::answer::codes::VIEW_FAILED, format!("the view could not be sent: {e}"))
    };
    if let Some(window) = by_script {
        if let Some(delivery) = hand_over(session, window).map_err(failed)? {
            return Ok(Response::new(delivery_marker(delivery)));
        }
    }
    answer_json(session).map(Response::new).map_err(failed)
}

/// Sends `session`'s view under `event` to the main window: a large view as a script
/// ([`hand_over`]) with the event carrying only `{"__trellisDelivery": number}`. Tauri writes an
/// event's payload into a script the page compiles in full, which takes seconds for a 34 MB
/// view (a large file opened from the menu, the command line or a drop; reloaded). A small view
/// is emitted as it is, written once.
pub fn emit_view_event(app: &AppHandle, event: &str, session: &Session) {
    if let Some(window) = app.get_webview_window(crate::ui_sync::MAIN_WINDOW) {
        if let Ok(Some(delivery)) = hand_over(session, &window) {
            let _ = app.emit(event, serde_json::json!({ DELIVERY_KEY: delivery }));
            return;
        }
    }
    let _ = app.emit(event, document_view(session));
}

/// An edit's answer in the same words as [`document_view`] (a diagnostic is reworded alone, so
/// the list edits still apply).
pub fn worded(mut delta: ViewDelta) -> ViewDelta {
    if let Some(e) = delta.diagnostics.as_mut() {
        e.insert = std::mem::take(&mut e.insert).into_iter().map(crate::wording::for_editor).collect();
    }
    delta.notes = std::mem::take(&mut delta.notes).into_iter().map(crate::wording::for_editor).collect();
    delta
}

impl DocumentSummary {
    pub fn of(session: &Session) -> DocumentSummary {
        DocumentSummary { id: id_string(session), file_name: file_name(session), dirty: session.is_dirty() }
    }
}

/// The recent files as the UI lists them (the Open Recent menu and the start page).
pub fn recent_list(paths: &[PathBuf]) -> Vec<RecentFile> {
    paths
        .iter()
        .enumerate()
        .map(|(index, p)| RecentFile {
            index,
            path: p.display().to_string(),
            file_name: p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;
    use std::sync::Arc;
    use trellis_doc::{DocId, Registries, SystemClock};

    /// A session of a generated document of `nodes` nodes (about 400 bytes of text a node),
    /// whose config holds `extra` as the text of one of its values.
    fn session(nodes: usize, extra: &str) -> Session {
        let mut spec = trellis_spec::generate::generate(nodes, 3);
        spec.nodes[0].config.insert("note".into(), Value::from(extra));
        let text = trellis_spec::to_canonical_string(&spec);
        let registries = Registries::new(trellis_spec::builtin::default_registry());
        Session::from_text(DocId(1), Some("g.json"), &text, registries, Arc::new(SystemClock)).expect("opens")
    }

    /// `[n, view, spec]` from a delivery script. The exact form matters: WebKit reads only a
    /// call of a property path with one JSON argument with its JSON parser (seconds otherwise).
    fn script_parts(script: &Script) -> (u64, Value, Value) {
        let head = format!("window.{RECEIVER}([{},", script.delivery);
        let literal = script.text.strip_prefix(&head).and_then(|s| s.strip_suffix("])"));
        let literal = literal.unwrap_or_else(|| panic!("not a delivery script: {}", &script.text[..80]));
        let parts: Value = serde_json::from_str(&format!("[{},{literal}]", script.delivery)).expect("JSON");
        (parts[0].as_u64().unwrap_or_default(), parts[1].clone(), parts[2].clone())
    }

    #[test]
    fn a_large_view_is_a_script_of_the_view_and_its_spec_apart() {
        let s = session(3_000, "plain");
        assert!(trellis_doc::view::spec_json_len(&s) >= SCRIPT_FROM_BYTES);
        let script = write_script(&s).expect("write").expect("a large view goes as a script");
        let (delivery, mut view, spec) = script_parts(&script);
        assert_eq!(delivery, script.delivery);
        assert_eq!(view["spec"], Value::Null, "the view carries no copy of the spec");
        // What the page does with the three (ui/src/api/delivery.ts): the view it holds is the
        // view a plain call answers.
        view["spec"] = spec;
        let answer: Value = serde_json::from_str(&answer_json(&s).expect("write")).expect("JSON");
        assert_eq!(view, answer);
        assert_eq!(answer["spec"]["nodes"].as_array().map(Vec::len), Some(3_000));
        let next = write_script(&s).expect("write").expect("a script again");
        assert_ne!(next.delivery, script.delivery, "each delivery has its own number");
        let marker: Value = serde_json::from_str(&delivery_marker(script.delivery)).expect("json");
        assert_eq!(
            marker,
            serde_json::json!({ "__trellisDelivery": script.delivery }),
            "delivery.ts reads this key"
        );
        // The event's payload, written by `json!` with the key's constant: the same object.
        assert_eq!(serde_json::json!({ DELIVERY_KEY: script.delivery }), marker);
    }

    #[test]
    fn a_small_view_is_an_answer() {
        let s = session(20, "plain");
        assert!(write_script(&s).expect("write").is_none());
        let answer: Value = serde_json::from_str(&answer_json(&s).expect("write")).expect("JSON");
        assert_eq!(answer["spec"]["nodes"].as_array().map(Vec::len), Some(20));
    }

    /// The page's side of a view handed over in parts (ui/src/api/delivery.ts): each part's list
    /// added to its kind's, in order, then the view's script with the spec's lists empty.
    fn put_together(scripts: &[String]) -> (u64, Value) {
        let (parts, last) = scripts.split_at(scripts.len() - 1);
        let (mut nodes, mut edges) = (Vec::new(), Vec::new());
        for part in parts {
            let literal = part
                .strip_prefix(&format!("window.{PART_RECEIVER}("))
                .and_then(|p| p.strip_suffix(')'))
                .unwrap_or_else(|| panic!("not a part: {}", &part[..60]));
            let [n, key, items]: [Value; 3] =
                serde_json::from_str(literal).expect("a part is [n, key, list]");
            assert_eq!(n.as_u64(), last[0].split(['[', ',']).nth(1).and_then(|d| d.parse().ok()));
            let list = items.as_array().expect("a list").clone();
            match key.as_str() {
                Some("nodes") => nodes.extend(list),
                Some("edges") => edges.extend(list),
                other => panic!("a part of {other:?}"),
            }
        }
        let delivery = last[0].split(['[', ',']).nth(1).and_then(|d| d.parse().ok()).expect("delivery");
        let (_, mut view, mut spec) = script_parts(&Script { delivery, text: last[0].clone() });
        assert_eq!(
            (spec["nodes"].as_array().map(Vec::len), spec["edges"].as_array().map(Vec::len)),
            (Some(0), Some(0))
        );
        spec["nodes"] = Value::Array(nodes);
        spec["edges"] = Value::Array(edges);
        view["spec"] = spec;
        (delivery, view)
    }

    #[test]
    fn a_large_document_as_read_goes_in_parts_that_make_its_view() {
        let s = session(3_000, "plain");
        let mut scripts = Vec::new();
        let delivery = write_in_parts(&s, 1_000, &mut |script| {
            scripts.push(script);
            true
        })
        .expect("write")
        .expect("an unchanged large document goes in parts");
        let edges = s.spec().map_or(0, |spec| spec.edges.len());
        assert_eq!(
            scripts.len(),
            3 + edges.div_ceil(1_000) + 1,
            "three node parts, the edge parts, the view"
        );
        let (got, view) = put_together(&scripts);
        assert_eq!(got, delivery);
        let answer: Value = serde_json::from_str(&answer_json(&s).expect("write")).expect("JSON");
        assert_eq!(view, answer);
        // A part the page cannot take stops the delivery (the view then goes as an answer).
        let mut sent = 0;
        assert_eq!(
            write_in_parts(&s, 1_000, &mut |_| {
                sent += 1;
                sent < 2
            })
            .expect("write"),
            None
        );
        assert_eq!(sent, 2);
    }

    /// Parts are for a document as read whose text cannot spell `__proto__`: otherwise the view
    /// goes whole, where the key is looked for in what is written.
    #[test]
    fn a_changed_document_or_one_that_could_spell_proto_goes_whole() {
        let whole = |s: &Session| write_in_parts(s, 1_000, &mut |_| true).expect("write").is_none();
        assert!(!whole(&session(3_000, "plain")));
        assert!(whole(&session(3_000, "not __proto__ here")));
        assert!(whole(&session(3_000, "a bell \u{7}")), "an escape in the text");
        assert!(whole(&session(20, "plain")), "small");
        let mut changed = session(3_000, "plain");
        let rename =
            serde_json::from_value(serde_json::json!({"op": "rename_graph", "name": "x"})).expect("edit");
        changed.apply(&rename).expect("applies");
        assert!(whole(&changed));
    }

    /// `{"__proto__": ...}` as a literal sets the object's prototype; only `JSON.parse` keeps it
    /// as a member, so such a view is not sent as a script (and loses nothing).
    #[test]
    fn a_view_holding_a_proto_key_is_not_a_script() {
        let mut spec = trellis_spec::generate::generate(3_000, 3);
        spec.nodes[5].config.insert("__proto__".into(), Value::from(1));
        let text = trellis_spec::to_canonical_string(&spec);
        let registries = Registries::new(trellis_spec::builtin::default_registry());
        let s = Session::from_text(DocId(1), None, &text, registries, Arc::new(SystemClock)).expect("opens");
        assert!(write_script(&s).expect("write").is_none());
        let answer: Value = serde_json::from_str(&answer_json(&s).expect("write")).expect("JSON");
        assert_eq!(answer["spec"]["nodes"][5]["config"]["__proto__"], Value::from(1));
    }
}
