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
import type { Diagnostic, DocumentView, Element, TextDelta, TextProblem, TextRange, TextView, ViewDelta } from "../bindings";
import { applyFix, runAction } from "../actions";
import { ui, useUi } from "../store";
import { completionSource } from "./completions";
import { extensions } from "./editorSetup";
import { setElementHighlight } from "./highlight";
import { UNDERLINE_LIMIT, underlines } from "./lint";
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
  /** Where each of the view's problems is (by index, in the text of the synced version), and
   * the reader's error. */
  private places: (TextRange | null)[] = [];
  private error: TextProblem | null = null;
  /** The view's problems the places were indexed for, and each one's index. */
  private indexedFor: readonly Diagnostic[] | null = null;
  private indexOf = new WeakMap<Diagnostic, number>();
  /** The element the pane itself selected on the canvas (its highlight is not asked back). */
  private selectedHere: string | null = null;
  /** The cursor rested while typing was not yet read: the canvas selects once it is. */
  private selectWhenSynced = false;
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
    this.places = [...opened.marks];
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
      const state = this.error ? "behind" : "typing";
      if (textPane.get().state !== state) textPane.set({ state });
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
    const errorBefore = JSON.stringify(this.error);
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
        // The problems' places move along with the text; Rust sends those of changed problems.
        for (const u of updates) this.places = moved(this.places, u.changes);
        this.view.dispatch(receiveUpdates(this.view.state, updates));
      }
    }
    if (d.marks) this.places = [...d.marks];
    if (d.markEdit) this.places.splice(d.markEdit.at, d.markEdit.remove, ...d.markEdit.insert);
    this.error = d.error ?? null;
    // The editor moves its underlines along with the text itself: they are set anew only when
    // the problems or the reader's error changed.
    if (d.marks || d.markEdit || d.reset != null || JSON.stringify(this.error) !== errorBefore) this.showProblems();
    const typing = sendableUpdates(this.view.state).length > 0;
    textPane.set((s) => ({
      state: this.error ? "behind" : typing ? "typing" : "synced",
      tick: s.tick + 1,
      ...(d.notice ? { notice: d.notice } : {}),
    }));
    if (d.notice) ui.toast("info", d.notice, 12000);
    if (typing && !this.timer && !this.sending) this.schedule(PAUSE_MS);
    if (!typing && this.selectWhenSynced) void this.selectAtCursor();
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

  /** A place of the synced text moved over the typing not yet confirmed. */
  private current(r: TextRange): TextRange {
    let { from, to } = r;
    for (const u of sendableUpdates(this.view.state)) {
      from = u.changes.mapPos(from, 1);
      to = Math.max(from, u.changes.mapPos(to, -1));
    }
    return { from, to };
  }

  /** The problems underlined where Rust placed them (moved over the typing not yet confirmed). */
  private showProblems() {
    const state = this.view.state;
    const docView = ui.get().docs[this.docId];
    if (!docView) return;
    const places = this.places.map((p) => (p ? this.current(p) : null));
    const error = this.error ? { ...this.error, ...this.current(this.error) } : null;
    const list = underlines(places, docView.diagnostics, error, state.doc.length, (fix) => void applyFix(fix.edit, this.docId));
    this.view.dispatch(setDiagnostics(state, list));
    const placed = places.reduce((n, p) => n + (p ? 1 : 0), 0);
    textPane.set({ locate: (d) => this.locate(d), overLimit: placed > UNDERLINE_LIMIT ? placed : null });
  }

  /** Where a problem of the view is in the pane now, as "line:column". */
  locate(d: Diagnostic): string | undefined {
    const diagnostics = ui.get().docs[this.docId]?.diagnostics;
    if (!diagnostics || this.disposed) return undefined;
    if (diagnostics !== this.indexedFor) {
      this.indexedFor = diagnostics;
      this.indexOf = new WeakMap(diagnostics.map((x, i) => [x, i]));
    }
    const i = this.indexOf.get(d);
    const p = i === undefined ? null : this.places[i];
    if (!p) return undefined;
    const at = this.current(p).from;
    if (at > this.view.state.doc.length) return undefined;
    const line = this.view.state.doc.lineAt(at);
    return `${line.number}:${at - line.from + 1}`;
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
    if (!this.backend.textElementAt) return;
    if (sendableUpdates(this.view.state).length) {
      // Rust's places are those of the text it has: asked again once the typing is read.
      this.selectWhenSynced = true;
      return;
    }
    this.selectWhenSynced = false;
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

  /** Nothing typed waits to be read, nothing is being sent. */
  synced(): boolean {
    return !this.timer && !this.sending && sendableUpdates(this.view.state).length === 0;
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

/** Places moved over changes of the text they are in. */
function moved(places: readonly (TextRange | null)[], changes: ChangeDesc): (TextRange | null)[] {
  return places.map((p) => {
    if (!p) return p;
    const from = changes.mapPos(p.from, 1);
    return { from, to: Math.max(from, changes.mapPos(p.to, -1)) };
  });
}

function edgeElement(docId: string, index: number): Element | null {
  const e = ui.get().docs[docId]?.spec.edges[index];
  return e ? { kind: "edge", index, from: e.from, to: e.to } : null;
}
