// The text pane: the active document's text beside the canvas, exactly as a save writes it,
// editable, both views live (see textSession.ts). Toggled with Ctrl+E or View > Text Pane; its
// width is dragged at its left edge and remembered.
import { useEffect, useRef } from "react";
import { answer, registerAction, registerSettle } from "../actions";
import type { DocumentView, Edit } from "../bindings";
import { errorMessage } from "../api/types";
import { onView, ui } from "../store";
import { UNDERLINE_LIMIT } from "./lint";
import { MIN_WIDTH, textPane, useTextPane } from "./textPaneState";
import { frameAfter, textPerf } from "./textPerf";
import { TextSession } from "./textSession";
import "./textPane.css";

/** The session of the document the pane shows (one at a time: the active tab's). */
let active: TextSession | null = null;

// A menu accelerator and the page's own key handler may both see Ctrl+E: one toggle.
let toggledAt = 0;
registerAction("toggle-text", () => {
  const now = performance.now();
  if (now - toggledAt < 250) return;
  toggledAt = now;
  textPane.toggle();
});
registerAction("show-text-error", () => showTextError());
// Typing not yet read goes to Rust before undo, redo, save or close act on the document.
registerSettle(async () => {
  await active?.flush();
});
// Every view the store takes: its text part for the pane, or (a whole view, a save's answer)
// a question for what the pane missed.
onView((id, delta) => {
  if (!active || active.docId !== id) return;
  if (delta?.text) active.receive(delta.text);
  else void active.pull();
});

/** What the end-to-end tests read of the pane and how they put its cursor (as a click does). */
declare global {
  interface Window {
    __trellisTextPane?: {
      text(): string | null;
      select(anchor: number, head?: number): boolean;
      synced(): boolean;
    };
  }
}
if (typeof window !== "undefined")
  window.__trellisTextPane = {
    text: () => (active ? active.view.state.sliceDoc(0) : null),
    select(anchor, head) {
      if (!active) return false;
      active.view.focus();
      active.view.dispatch({ selection: { anchor, head: head ?? anchor }, scrollIntoView: true, userEvent: "select.pointer" });
      return true;
    },
    synced: () => !!active && active.synced(),
  };

textPerf.canvasEdit = async (edit: Edit) => {
  const t0 = performance.now();
  const d = await answer(edit);
  return d?.text ? frameAfter(t0) : null;
};

/** Opens the pane (when closed) and shows where the text stops reading. */
export function showTextError() {
  if (!textPane.get().open) textPane.toggle(true);
  const tryShow = (n: number) => {
    if (active) active.showError();
    else if (n > 0) setTimeout(() => tryShow(n - 1), 100);
  };
  tryShow(20);
}

export function TextPane({ view }: { view: DocumentView }) {
  const open = useTextPane((s) => s.open);
  if (!open) return null;
  return <OpenPane view={view} />;
}

const FORMAT_NAME: Record<DocumentView["format"], string> = {
  graphspec: "GraphSpec JSON, canonical form",
  weaveflow: "Weaveflow JSON, as written",
  graphmd: "GRAPH.md, as written",
};

function OpenPane({ view }: { view: DocumentView }) {
  const host = useRef<HTMLDivElement>(null);
  const width = useTextPane((s) => s.width);
  const status = useTextPane((s) => s.state);
  const readOnly = useTextPane((s) => s.readOnly);
  const notice = useTextPane((s) => s.notice);
  const failed = useTextPane((s) => s.failed);
  const overLimit = useTextPane((s) => s.overLimit);
  const docId = view.id;
  const format = view.format;

  useEffect(() => {
    const backend = ui.get().backend;
    const el = host.current;
    if (!el || !backend?.textOpen) {
      textPane.set({ failed: "The text pane needs the desktop app (the text is Rust's).", docId: null });
      return;
    }
    let cancelled = false;
    let session: TextSession | null = null;
    const t0 = performance.now();
    textPane.set({ docId, state: "loading", failed: null, notice: null, readOnly: null });
    backend.textOpen(docId).then(
      (opened) => {
        if (cancelled) return;
        session = new TextSession(docId, backend, el, opened, format);
        active = session;
        // Whatever changed between Rust's answer and now (an edit answered meanwhile).
        void session.pull();
        void frameAfter(t0).then((ms) => textPerf.opened.push(ms));
      },
      (err) => {
        if (!cancelled) textPane.set({ failed: `The text could not be opened: ${errorMessage(err)}` });
      },
    );
    return () => {
      cancelled = true;
      const s = session;
      if (active === s) active = null;
      if (s) {
        // What was typed is read before the pane goes (Rust keeps it).
        void s.flush().finally(() => {
          s.dispose();
          void backend.textClose?.(docId).catch(() => {});
        });
      }
    };
  }, [docId, format]);

  const statusText =
    failed ??
    (status === "loading"
      ? "Opening the text…"
      : status === "behind"
        ? "The text does not read: the canvas shows the last text that read."
        : status === "typing"
          ? "Reading what you type…"
          : "In step with the canvas.");

  return (
    <>
      <Resizer />
      <section
        className="panel text-pane"
        style={{ width }}
        data-testid="text-pane"
        data-state={status}
        data-doc={docId}
        aria-label="Document text"
      >
        <div className="panel-head">
          <span>Text</span>
          <span className="muted text-pane-format">{FORMAT_NAME[format]}</span>
          <button
            type="button"
            className="link"
            onClick={() => textPane.toggle(false)}
            aria-label="close the text pane"
            title="Close (Ctrl+E)"
          >
            ×
          </button>
        </div>
        <div className={`text-pane-status ${status}${failed ? " failed" : ""}`} data-testid="text-pane-status" role="status">
          {statusText}
          {status === "behind" && (
            <button type="button" className="link" onClick={() => active?.showError()}>
              Show where
            </button>
          )}
        </div>
        {readOnly && (
          <div className="text-pane-note" data-testid="text-pane-read-only">
            {readOnly}
          </div>
        )}
        {overLimit && (
          <div className="text-pane-note" data-testid="text-pane-over-limit">
            The first {UNDERLINE_LIMIT.toLocaleString("en")} of {overLimit.toLocaleString("en")} problems are underlined here; the problems
            panel lists them all.
          </div>
        )}
        {notice && (
          <div className="text-pane-note" data-testid="text-pane-notice">
            {notice}{" "}
            <button type="button" className="link" onClick={() => textPane.set({ notice: null })}>
              OK
            </button>
          </div>
        )}
        <div className="text-pane-host" ref={host} data-text-pane />
      </section>
    </>
  );
}

/** The pane's left edge: dragged to resize (the width is kept for the next start). */
function Resizer() {
  const width = useTextPane((s) => s.width);
  const onPointerDown = (e: React.PointerEvent<HTMLDivElement>) => {
    e.preventDefault();
    const startX = e.clientX;
    const start = textPane.get().width;
    const target = e.currentTarget;
    target.setPointerCapture(e.pointerId);
    const move = (ev: PointerEvent) => {
      const max = Math.max(MIN_WIDTH, window.innerWidth - 360);
      textPane.resize(Math.min(max, start + (startX - ev.clientX)));
    };
    const up = () => {
      target.removeEventListener("pointermove", move);
      target.removeEventListener("pointerup", up);
    };
    target.addEventListener("pointermove", move);
    target.addEventListener("pointerup", up);
  };
  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === "ArrowLeft") textPane.resize(textPane.get().width + 40);
    else if (e.key === "ArrowRight") textPane.resize(textPane.get().width - 40);
  };
  return (
    // biome-ignore lint/a11y/useSemanticElements: a vertical splitter has no element of its own
    <div
      className="text-pane-resize"
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize the text pane"
      aria-valuenow={width}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onKeyDown={onKeyDown}
      data-testid="text-pane-resize"
    />
  );
}
