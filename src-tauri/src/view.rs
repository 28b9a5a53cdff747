//! What crosses IPC to the UI, besides the `Edit`s it sends: the [`DocumentView`] of an open
//! document and the answers of commands. TypeScript types are generated with ts-rs
//! (`cargo test -p trellis-app export_bindings` with `TS_RS_EXPORT_DIR` set, see
//! `scripts/bindings.sh`), never written twice.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::Serialize;
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
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct SaveAnswer {
    pub saved: bool,
    pub view: DocumentView,
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
    /// An answer that saved nothing.
    pub fn not_saved(view: DocumentView, diagnostics: Vec<Diagnostic>, conflict: bool) -> SaveAnswer {
        SaveAnswer {
            saved: false,
            view,
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
    let mut view = DocumentView::of(session);
    view.diagnostics =
        std::mem::take(&mut view.diagnostics).into_iter().map(crate::wording::for_editor).collect();
    view
}

/// Answers whose spec text is at least this large go to the page as a script when the page
/// asks for that (below it the two ways cost the same).
const SCRIPT_FROM_BYTES: usize = 1 << 20;
/// The function the page defines to take a view handed over as a script
/// (ui/src/api/delivery.ts).
const RECEIVER: &str = "__TRELLIS_DELIVER__";
/// The key of the small answer that stands for a view handed over as a script.
pub const DELIVERY_KEY: &str = "__trellisDelivery";
/// Numbers the views handed over as scripts, so that the page matches each one to its answer.
static NEXT_DELIVERY: AtomicU64 = AtomicU64::new(1);

/// An answer written as JSON, and how it goes to the page.
#[derive(Debug)]
enum Written {
    /// As the command's answer (the page parses it with `JSON.parse`).
    Answer(String),
    /// As a script that calls [`RECEIVER`] with `[the delivery's number, the answer]` as a
    /// literal; the command answers `{"__trellisDelivery": number}`.
    Script { delivery: u64, script: String },
}

/// Writes `head`, then `answer`'s JSON, once, into a buffer of about their size (`spec`: the
/// length of the spec texts the answer holds). Tauri's own answer writes into a string that
/// grows by doubling, copying the spec's text (34 MB at 100,000 nodes) again at each step,
/// into fresh memory, which a VM of this kind is slow to hand out the first time.
fn write_after<T: Serialize>(head: &str, answer: &T, spec: usize) -> serde_json::Result<Vec<u8>> {
    // The spec is most of a view; positions, labels and findings add about a tenth.
    let mut out = Vec::with_capacity(head.len() + spec + spec / 8 + 4096);
    out.extend_from_slice(head.as_bytes());
    serde_json::to_writer(&mut out, answer)?;
    Ok(out)
}

/// `answer` as JSON, the command's answer as it is.
fn answer_json<T: Serialize>(answer: &T, spec: usize) -> serde_json::Result<String> {
    write_after("", answer, spec).map(utf8)
}

/// `answer` as a script for the page, when it is large. JSON text is a JavaScript literal of
/// the same value, and the page reads a 34 MB view 100-250 ms sooner that way than as an
/// answer (carried through WebKit's URI scheme handler, then parsed again; docs/BENCHMARKS.md).
/// The one place the two readings differ is a `"__proto__"` key (a literal sets the
/// prototype, `JSON.parse` an own member): an answer holding that text anywhere stays an
/// answer, as a small one does.
fn write_answer<T: Serialize>(answer: &T, spec: usize) -> serde_json::Result<Written> {
    if spec < SCRIPT_FROM_BYTES {
        return answer_json(answer, spec).map(Written::Answer);
    }
    let delivery = NEXT_DELIVERY.fetch_add(1, Ordering::Relaxed);
    // One call of a property path with one JSON argument: the form JavaScriptCore reads with
    // its JSON parser (its JSONP path). Anything else (a guard such as `f && f(..)`, a second
    // argument) goes through the full script compiler: 3.4 s instead of 0.4 for 34 MB.
    let head = format!("window.{RECEIVER}([{delivery},");
    let mut out = write_after(&head, answer, spec)?;
    if memchr::memmem::find(&out[head.len()..], b"\"__proto__\"").is_some() {
        out.drain(..head.len());
        return Ok(Written::Answer(utf8(out)));
    }
    out.extend_from_slice(b"])");
    Ok(Written::Script { delivery, script: utf8(out) })
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

/// Hands `answer` (`spec`: the length of the spec texts it holds) to `window`'s page as a
/// script when it is large ([`write_answer`]): the delivery's number, or the answer's JSON
/// when it goes as the answer instead (small, holding `"__proto__"`, or a window that cannot
/// run a script any more: closing).
fn hand_over<T: Serialize>(
    answer: &T,
    spec: usize,
    window: &WebviewWindow,
) -> serde_json::Result<Result<u64, String>> {
    match write_answer(answer, spec)? {
        Written::Answer(text) => Ok(Err(text)),
        Written::Script { delivery, script } => match window.eval(script) {
            Ok(()) => Ok(Ok(delivery)),
            Err(_) => answer_json(answer, spec).map(Err),
        },
    }
}

/// The answer of a command that sends a whole document view (open, reload). `views` is what
/// the answer holds (a view, or none for a cancelled dialog). `by_script`: the window whose
/// page asked for a large view as a script ([`hand_over`]), if it did.
pub fn view_answer<T: Serialize>(
    answer: &T,
    views: &[&DocumentView],
    by_script: Option<&WebviewWindow>,
) -> Result<tauri::ipc::Response, Diagnostic> {
    let spec: usize = views.iter().map(|v| v.spec.get().len()).sum();
    let written = match by_script {
        Some(window) => hand_over(answer, spec, window),
        None => answer_json(answer, spec).map(Err),
    };
    match written {
        Ok(Ok(delivery)) => Ok(tauri::ipc::Response::new(delivery_marker(delivery))),
        Ok(Err(text)) => Ok(tauri::ipc::Response::new(text)),
        Err(e) => Err(Diagnostic::error(
            crate::answer::codes::VIEW_FAILED,
            format!("the view could not be sent: {e}"),
        )),
    }
}

/// Sends `view` under `event` to the main window: a large view as a script ([`hand_over`])
/// with the event carrying only `{"__trellisDelivery": number}`. Tauri writes an event's
/// payload into a script the page compiles in full, which takes seconds for a 34 MB view (a
/// large file opened from the menu, the command line or a drop; reloaded). A small view is
/// emitted as it is, written once.
pub fn emit_view_event(app: &AppHandle, event: &str, view: &DocumentView) {
    let spec = view.spec.get().len();
    let window = app.get_webview_window(crate::ui_sync::MAIN_WINDOW);
    if let Some(window) = window.filter(|_| spec >= SCRIPT_FROM_BYTES) {
        if let Ok(Ok(delivery)) = hand_over(view, spec, &window) {
            let _ = app.emit(event, serde_json::json!({ DELIVERY_KEY: delivery }));
            return;
        }
    }
    let _ = app.emit(event, view);
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
    use serde_json::{json, Value};

    /// An answer with `n` bytes of text in it (the spec's share of a view).
    fn answer_of(n: usize, key: &str) -> Value {
        json!({ "id": "1", "spec": { key: "x".repeat(n), "nodes": [{ "id": "a\u{2028}b" }] } })
    }

    /// The view in a delivery script. The exact form matters: WebKit reads only a call of a
    /// property path with one JSON argument with its JSON parser (seconds otherwise).
    fn script_value(script: &str, delivery: u64) -> Value {
        let head = format!("window.{RECEIVER}([{delivery},");
        let literal = script.strip_prefix(&head).and_then(|s| s.strip_suffix("])"));
        serde_json::from_str(literal.unwrap_or_else(|| panic!("not a delivery script: {}", &script[..80])))
            .expect("the literal is the answer's JSON")
    }

    #[test]
    fn a_large_answer_asked_for_as_a_script_calls_the_receiver_with_its_json() {
        let answer = answer_of(SCRIPT_FROM_BYTES, "name");
        let Written::Script { delivery, script } = write_answer(&answer, SCRIPT_FROM_BYTES).expect("write")
        else {
            panic!("a large answer asked for as a script is one")
        };
        assert_eq!(script_value(&script, delivery), answer);
        let Written::Script { delivery: next, .. } = write_answer(&answer, SCRIPT_FROM_BYTES).expect("write")
        else {
            panic!("a script again")
        };
        assert_ne!(next, delivery, "each delivery has its own number");
        let marker: Value = serde_json::from_str(&delivery_marker(delivery)).expect("json");
        assert_eq!(marker, json!({ "__trellisDelivery": delivery }), "ui/src/api/delivery.ts reads this key");
        // The event's payload, written by `json!` with the key's constant: the same object.
        assert_eq!(json!({ DELIVERY_KEY: delivery }), marker);
    }

    #[test]
    fn small_answers_and_plain_calls_are_answers() {
        let small = answer_of(SCRIPT_FROM_BYTES - 1, "name");
        match write_answer(&small, SCRIPT_FROM_BYTES - 1).expect("write") {
            Written::Answer(text) => assert_eq!(serde_json::from_str::<Value>(&text).expect("json"), small),
            Written::Script { .. } => panic!("a small answer is an answer"),
        }
        // What a call without `byScript` answers, whatever its size.
        let large = answer_of(SCRIPT_FROM_BYTES, "name");
        let text = answer_json(&large, SCRIPT_FROM_BYTES).expect("write");
        assert_eq!(serde_json::from_str::<Value>(&text).expect("json"), large);
    }

    /// `{"__proto__": ...}` as a literal sets the object's prototype; only `JSON.parse` keeps it
    /// as a member, so such an answer is not sent as a script (and loses nothing).
    #[test]
    fn an_answer_holding_a_proto_key_is_sent_as_an_answer() {
        let answer = answer_of(SCRIPT_FROM_BYTES, "__proto__");
        match write_answer(&answer, SCRIPT_FROM_BYTES).expect("write") {
            Written::Answer(text) => assert_eq!(serde_json::from_str::<Value>(&text).expect("json"), answer),
            Written::Script { .. } => panic!("a __proto__ key must not go as a script"),
        }
    }
}
