// One document's text in the pane, kept in step with Rust, which owns it.
//
// Typing changes the editor at once; after a short pause the changes go to Rust (`textType`),
// which reads the text and answers like an edit: the canvas takes the delta, the pane gets its
// own changes confirmed. Whatever else changes the document (the canvas, undo, a reload, a
// save) comes as updates in that change's answer (`ViewDelta.text`), or, after a whole view, by
// asking for the updates since the pane's version. `@codemirror/collab` keeps the two in step:
// typing not yet confirmed is moved over Rust's updates, so nothing typed is lost.
import { getClientID, getSyncedVersion, receiveUpdates, sendableUpdates } from "@codemirror/collab";
import { setDiagnostics } from "@codemirror/lint";
import { type ChangeDesc, EditorState, Transaction } from "@codemirror/state";
import { EditorView, type ViewUpdate } from "@codemirror/view";
import type { Backend } from "../api/types";
import { errorMessage } from "../api/types";
import type { Diagnostic, DocumentView, Element, TextDelta, TextMark, TextProblem, TextView, ViewDelta } from "../bindings";
import { applyFix, runAction } from "../actions";
import { ui, useUi } from "../store";
import { completionSource } from "./completions";
import { extensions } from "./editorSetup";
import { setElementHighlight } from "./highlight";
import { underlines } from "./lint";
import { changesOf, toUpdate, unseen } from "./protocol";
import { textPane } from "./textPaneState";
import { keyDown, keystrokeSeen, typingReflected } from "./textPerf";

/** How long the typing rests before it is read. */
export const PAUSE_MS = 150;
/** How long the cursor rests before the canvas selects what it is in. */
const CURSOR_REST_MS = 120;

let nextClient = 1;

export class TextSession {
  readonly view: EditorView;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private sending: Promise<void> | null = null;
  private cursorTimer: ReturnType<typeof setTimeout> | null = null;
  /** The problems' places Rust sent last (for its synced version), and the reader's error. */
  private marks: readonly TextMark[] = [];
  private error: TextProblem | null = null;
  /** The element the pane itself selected on the canvas (its highlight is not asked back). */
  private selectedHere: string | null = null;
  private disposed = false;
  private offSelection: () => void;
  /** A fresh editor state on `text` at `version` (the pane's extensions). */
  private readonly make: (text: string, version: number) => EditorState;

  constructor(
    readonly docId: string,
    private readonly backend: Backend,
    parent: HTMLElement,
    opened: TextView,
    format: DocumentView["format"],
  ) {
    const clientID = `pane-${nextClient++}-${Math.floor(Math.random() * 1e6)}`;
    const readOnly = !!opened.readOnly;
    this.make = (text, version) =>
      EditorState.create({
        doc: text,
        extensions: extensions({
          format,
          version,
          clientID,
          readOnly,
          lineSeparator: text.includes("\r\n") ? "\r\n" : undefined,
          completions: completionSource(() => ui.get().docs[this.docId] ?? null),
          keys: [
            { key: "Mod-z", run: () => (void runAction("undo"), true), preventDefault: true },
            { key: "Mod-y", run: () => (void runAction("redo"), true), preventDefault: true },
            { key: "Mod-Shift-z", run: () => (void runAction("redo"), true), preventDefault: true },
          ],
          onUpdate: (u) => this.updated(u),
        }),
      });
    this.view = new EditorView({ state: this.make(opened.text, opened.version), parent });
    this.view.dom.addEventListener("keydown", (e) => keyDown(e.timeStamp), true);
    this.marks = opened.marks;
    this.error = opened.error ?? null;
    this.showProblems();
    textPane.set({ docId, state: opened.error ? "behind" : "synced", readOnly: opened.readOnly ?? null, notice: null, failed: null });
    let last = ui.get().selection;
    this.offSelection = useUi.subscribe((s) => {
      if (s.selection !== last) {
        last = s.selection;
        void this.revealSelection();
      }
    });
    void this.revealSelection();
  }

  /** Every editor update: typing schedules a send; a moved cursor, a canvas selection. */
  private updated(u: ViewUpdate) {
    const typed = u.transactions.some((tr) => tr.docChanged && !tr.annotation(Transaction.remote));
    if (typed) {
      keystrokeSeen();
      textPane.set({ state: this.error ? "behind" : "typing" });
      this.schedule(PAUSE_MS);
    }
    if (u.selectionSet && u.transactions.some((tr) => tr.isUserEvent("select") || tr.isUserEvent("input"))) {
      if (this.cursorTimer) clearTimeout(this.cursorTimer);
      this.cursorTimer = setTimeout(() => void this.selectAtCursor(), CURSOR_REST_MS);
    }
  }

  private schedule(ms: number) {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, ms);
  }

  /** Sends the typing not yet sent, and waits until Rust has answered all of it. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    while (!this.disposed) {
      if (this.sending) {
        await this.sending;
        continue;
      }
      const pending = sendableUpdates(this.view.state);
      if (!pending.length || !this.backend.textType) return;
      this.sending = this.send(pending.map((u) => changesOf(u.changes, this.view.state.lineBreak)));
      try {
        await this.sending;
      } finally {
        this.sending = null;
      }
    }
  }

  private async send(updates: ReturnType<typeof changesOf>[]): Promise<void> {
    const version = getSyncedVersion(this.view.state);
    let delta: ViewDelta;
    try {
      delta = await this.backend.textType!(this.docId, { client: getClientID(this.view.state), version, updates });
    } catch (err) {
      ui.toast("error", `The text could not be read: ${errorMessage(err)}`);
      // What Rust holds now, so the pane can go on from there.
      await this.pull();
      return;
    }
    ui.clearExtraDiagnostics(this.docId);
    // The canvas takes the delta; the store tells this session its text part.
    ui.applyDelta(delta);
    typingReflected();
  }

  /** Takes the text part of an answer (or of a pull). */
  receive(d: TextDelta) {
    if (this.disposed) return;
    if (d.reset != null) {
      this.resetTo(d.reset, d.to);
    } else {
      const at = getSyncedVersion(this.view.state);
      const fresh = unseen(d.from, d.updates, at);
      if (fresh === null) {
        void this.pull();
        return;
      }
      if (fresh.length) {
        const updates = fresh.map(toUpdate);
        // The problems' places move along with the text (Rust sends them again when they change).
        if (!d.marks) for (const u of updates) this.marks = moved(this.marks, u.changes);
        this.view.dispatch(receiveUpdates(this.view.state, updates));
      }
    }
    if (d.marks) this.marks = d.marks;
    this.error = d.error ?? null;
    this.showProblems();
    const typing = sendableUpdates(this.view.state).length > 0;
    textPane.set({ state: this.error ? "behind" : typing ? "typing" : "synced", ...(d.notice ? { notice: d.notice } : {}) });
    if (d.notice) ui.toast("info", d.notice, 12000);
    if (typing && !this.timer && !this.sending) this.schedule(PAUSE_MS);
  }

  /** Asks Rust for the updates since the pane's version (after a whole view, a save). */
  async pull(): Promise<void> {
    if (!this.backend.textSince || this.disposed) return;
    try {
      this.receive(await this.backend.textSince(this.docId, getSyncedVersion(this.view.state)));
    } catch (err) {
      textPane.set({ failed: errorMessage(err) });
    }
  }

  /** Rust's text replaces the editor's (the updates since the pane's version were no longer
   * kept: a pane that missed hundreds of them). The cursor stays where it was, as near as
   * the new text allows. */
  private resetTo(text: string, version: number) {
    const head = this.view.state.selection.main.head;
    this.view.setState(this.make(text, version));
    const at = Math.min(head, this.view.state.doc.length);
    this.view.dispatch({ selection: { anchor: at }, effects: EditorView.scrollIntoView(at, { y: "center" }) });
  }

  /** The problems underlined: Rust's places (for its synced version) moved over the typing
   * not yet confirmed. */
  private showProblems() {
    const state = this.view.state;
    const docView = ui.get().docs[this.docId];
    if (!docView) return;
    let marks = this.marks;
    let error = this.error;
    for (const u of sendableUpdates(state)) {
      marks = moved(marks, u.changes);
      if (error)
        error = {
          ...error,
          from: u.changes.mapPos(error.from, 1),
          to: Math.max(u.changes.mapPos(error.from, 1), u.changes.mapPos(error.to, -1)),
        };
    }
    const list = underlines(marks, docView.diagnostics, error, state.doc.length, (fix) => void applyFix(fix.edit, this.docId));
    this.view.dispatch(setDiagnostics(state, list));
    const locations = new WeakMap<Diagnostic, string>();
    for (const m of marks) {
      const d = docView.diagnostics[m.index];
      if (!d || m.from > state.doc.length) continue;
      const line = state.doc.lineAt(m.from);
      locations.set(d, `${line.number}:${m.from - line.from + 1}`);
    }
    textPane.set({ locations });
  }

  /** The canvas selected one node or edge: its text is highlighted and scrolled to. */
  private async revealSelection() {
    const sel = ui.get().selection;
    const element: Element | null =
      sel.nodes.length === 1 && sel.edges.length === 0
        ? { kind: "node", id: sel.nodes[0] }
        : sel.edges.length === 1 && sel.nodes.length === 0
          ? edgeElement(this.docId, sel.edges[0])
          : null;
    const key = element ? JSON.stringify(element) : null;
    if (!element || !this.backend.textRangeOf) {
      this.view.dispatch({ effects: setElementHighlight.of(null) });
      return;
    }
    const fromHere = key === this.selectedHere;
    const version = getSyncedVersion(this.view.state);
    const range = await this.backend.textRangeOf(this.docId, version, element).catch(() => null);
    if (this.disposed || !range) return;
    // Moved over the typing not yet confirmed.
    let { from, to } = range;
    for (const u of sendableUpdates(this.view.state)) {
      from = u.changes.mapPos(from, 1);
      to = u.changes.mapPos(to, -1);
    }
    const effects = [setElementHighlight.of({ from, to })];
    // The pane selected it itself: highlighted where the cursor is, not scrolled away.
    this.view.dispatch({ effects: fromHere ? effects : [...effects, EditorView.scrollIntoView(from, { y: "center" })] });
  }

  /** The cursor rests in an element's text: the canvas selects it. */
  private async selectAtCursor() {
    if (!this.backend.textElementAt || sendableUpdates(this.view.state).length) return;
    const version = getSyncedVersion(this.view.state);
    const head = this.view.state.selection.main.head;
    const el = await this.backend.textElementAt(this.docId, version, head).catch(() => null);
    if (this.disposed || !el) return;
    if (el.kind === "node") {
      this.selectedHere = JSON.stringify({ kind: "node", id: el.id });
      ui.select({ nodes: [el.id], edges: [] });
    } else if (el.kind === "edge") {
      this.selectedHere = JSON.stringify(edgeElement(this.docId, el.index));
      ui.select({ nodes: [], edges: [el.index] });
    }
  }

  /** Jumps to the reader's error (the canvas's "behind" banner asks for it). */
  showError() {
    if (!this.error) return;
    let { from } = this.error;
    for (const u of sendableUpdates(this.view.state)) from = u.changes.mapPos(from, 1);
    this.view.dispatch({ selection: { anchor: from }, effects: EditorView.scrollIntoView(from, { y: "center" }) });
    this.view.focus();
  }

  dispose() {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.cursorTimer) clearTimeout(this.cursorTimer);
    this.offSelection();
    this.view.destroy();
  }
}

/** Marks moved over changes of the text they are placed in. */
function moved(marks: readonly TextMark[], changes: ChangeDesc): TextMark[] {
  return marks.map((m) => ({ ...m, from: changes.mapPos(m.from, 1), to: Math.max(changes.mapPos(m.from, 1), changes.mapPos(m.to, -1)) }));
}

function edgeElement(docId: string, index: number): Element | null {
  const e = ui.get().docs[docId]?.spec.edges[index];
  return e ? { kind: "edge", index, from: e.from, to: e.to } : null;
}
