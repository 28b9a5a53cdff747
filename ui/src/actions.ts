// Everything the user can do, as functions the shortcuts, the menu events, the toolbar and the
// panels share. Each document change is one `Edit` sent to the backend; the answer (what
// changed) is applied to the document view held in the store.
import type { ConflictChoice, Diagnostic, Edit, Element, FixEdit, Position, SaveAnswer, TypeInfo, ViewDelta } from "./bindings";
import { errorMessage, type ExportFormat } from "./api/types";
import { type Fragment, buildFragment, fragmentText, parseFragment } from "./lib/clipboard";
import { freeSpot, occupiedBoxes } from "./lib/freeSpot";
import { NODE_H, NODE_W, resolvePositions, boundsOf } from "./lib/geometry";
import { count } from "./lib/counts";
import { END, START } from "./lib/ids";
import { traceMark } from "./perf/editTrace";
import { canvasController } from "./canvas/canvasController";
import { ui } from "./store";
import { closeCompare, compareWithFile, openCompareChooser } from "./compare/compareState";

function backend() {
  const b = ui.get().backend;
  if (!b) throw new Error("no backend");
  return b;
}

/** Sends one edit and applies Rust's answer to the view held; throws Rust's refusal. */
async function send(e: Edit, docId: string): Promise<ViewDelta> {
  traceMark("sent");
  const delta = await backend().applyEdit(docId, e);
  traceMark("answered");
  ui.clearExtraDiagnostics(docId);
  ui.applyDelta(delta);
  traceMark("stored");
  for (const note of delta.notes) ui.toast("info", note.message);
  return delta;
}

/** Sends one edit and answers what changed, or null when it was refused (an error toast with
 * Rust's reason). */
export async function answer(e: Edit, docId = ui.get().activeId): Promise<ViewDelta | null> {
  if (!docId) return null;
  try {
    return await send(e, docId);
  } catch (err) {
    ui.toast("error", errorMessage(err));
    return null;
  }
}

/** Sends one edit; answers Rust's reason when it was refused (no toast: the caller shows it),
 * null when it was applied. */
export async function editOrReason(e: Edit, docId = ui.get().activeId): Promise<string | null> {
  if (!docId) return "No document is open.";
  try {
    await send(e, docId);
    return null;
  } catch (err) {
    return errorMessage(err);
  }
}

/** Sends one edit; a refusal becomes an error toast with Rust's reason. */
export async function edit(e: Edit, docId = ui.get().activeId): Promise<boolean> {
  return (await answer(e, docId)) !== null;
}

/** Rust's refusals already start with "not saved: "; the UI adds its own prefix once. */
export function withoutNotSaved(message: string): string {
  return message.replace(/^not saved:\s*/i, "");
}

/** Applies a diagnostic's fix (Rust turns it into an edit or a registry write). A fix that
 * wrote a registry file says which one; the other open documents arrive as `changed` events. */
export async function applyFix(fix: FixEdit, docId = ui.get().activeId): Promise<boolean> {
  if (!docId) return false;
  try {
    const b = backend();
    if (!b.applyFix) throw new Error("fixes are applied in the desktop app");
    const answer = await b.applyFix(docId, fix);
    ui.clearExtraDiagnostics(docId);
    ui.putDoc(answer.view);
    if (answer.notice) ui.toast("info", answer.notice);
    return true;
  } catch (err) {
    ui.toast("error", errorMessage(err));
    return false;
  }
}

/** Sets the accepted Weaveflow `version`; Rust revalidates the open documents and sends their
 * new views. Answers the value in force (unchanged when refused, with an error toast). */
export async function setWeaveflowVersion(version: string): Promise<string | null> {
  try {
    const now = await backend().setWeaveflowVersion(version);
    const id = ui.get().activeId;
    if (id) ui.putDoc(await backend().getDocument(id));
    return now;
  } catch (err) {
    ui.toast("error", errorMessage(err));
    return null;
  }
}

/** Work to finish before the history moves or the document is saved or closed (the text
 * pane's typing not yet read), registered by the modules that hold it. */
const settlers = new Set<() => Promise<void>>();
export function registerSettle(settle: () => Promise<void>) {
  settlers.add(settle);
}
async function settled() {
  for (const settle of settlers) await settle();
}

export async function undo() {
  await settled();
  const v = ui.active();
  if (!v) return;
  if (!v.canUndo) return ui.toast("info", "Nothing to undo.");
  try {
    traceMark("sent");
    const delta = await backend().undo(v.id);
    traceMark("answered");
    ui.applyDelta(delta);
    traceMark("stored");
  } catch (err) {
    ui.toast("error", errorMessage(err));
  }
}

export async function redo() {
  await settled();
  const v = ui.active();
  if (!v) return;
  if (!v.canRedo) return ui.toast("info", "Nothing to redo.");
  try {
    traceMark("sent");
    const delta = await backend().redo(v.id);
    traceMark("answered");
    ui.applyDelta(delta);
    traceMark("stored");
  } catch (err) {
    ui.toast("error", errorMessage(err));
  }
}

export async function save(as = false) {
  await settled();
  const v = ui.active();
  if (!v) return;
  try {
    const out = as ? await backend().saveAs(v.id) : await backend().save(v.id);
    // What the save changed: as a delta (a save does not change the document), or the whole
    // view when the file or a conflict changed.
    if (out.view) ui.putDoc(out.view);
    else if (out.delta) ui.applyDelta(out.delta);
    const now = ui.get().docs[v.id] ?? v;
    if (out.saved) {
      // The document is written with its problems, if any: they stay on screen as they were,
      // and the message counts them as the status bar does.
      ui.set((s) => ({ extraDiagnostics: { ...s.extraDiagnostics, [v.id]: [] } }));
      const errors = now.diagnostics.filter((d) => d.severity === "error");
      const long = out.reformattedLines || out.newLayoutFile || errors.length;
      ui.toast(errors.length ? "warning" : "info", savedMessage(out, now.fileName, errors), long ? 12000 : 4000);
      for (const w of out.diagnostics) ui.toast("warning", w.message);
      return;
    }
    // Refused (a conflict, what the file cannot hold, a failed write) or cancelled: why, as a
    // message. It is not a finding of the document, so the problems stay what they were.
    if (out.conflict)
      return ui.toast("error", `${now.fileName} was not saved: the file changed on disk since it was opened. Nothing was written.`);
    const first = out.diagnostics.find((d) => d.severity === "error") ?? out.diagnostics[0];
    if (!first) return;
    ui.toast("error", `${now.fileName} was not saved (the file on disk is unchanged): ${withoutNotSaved(first.message)}`);
    revealElement(first.element);
  } catch (err) {
    ui.toast("error", `Save failed: ${errorMessage(err)}`);
  }
}

/** The words of a successful save of `name` with its `errors`: what it wrote that the user did
 * not ask for is said once, and so are the problems it was written with. */
export function savedMessage(out: SaveAnswer, name: string, errors: readonly Diagnostic[] = []): string {
  const n = out.reformattedLines;
  const saved = n ? `Saved ${name} in canonical form` : `Saved ${name}`;
  const reformatted = n ? `${count(n, "line")} reformatted.` : "";
  let text = n ? `${saved}: ${reformatted}` : `${saved}.`;
  if (errors.length === 1)
    text = `${saved} with 1 problem: ${errors[0].message.replace(/[.\s]+$/, "")}. The runtime will refuse it until it is fixed.`;
  else if (errors.length) text = `${saved} with ${count(errors.length, "problem")}: the runtime will refuse it until they are fixed.`;
  if (errors.length && n) text += ` ${reformatted}`;
  if (out.newLayoutFile) {
    const layout = out.newLayoutFile.split(/[\\/]/).pop();
    text += ` Node positions are kept in a new file beside it, ${layout}: commit it with the document.`;
  }
  return text;
}

export async function newDocument(example = false) {
  try {
    ui.putDoc(await backend().newDocument(example), true);
  } catch (err) {
    ui.toast("error", errorMessage(err));
  }
}

export async function openDocument() {
  try {
    traceMark("open:sent");
    const v = await backend().openDialog();
    traceMark("open:answered");
    if (v) ui.putDoc(v, true);
    traceMark("open:stored");
  } catch (err) {
    // In the app a file that does not open is already told by its notice (open-failed).
    if (backend().kind !== "tauri") ui.toast("error", errorMessage(err));
  }
}

export const EXPORT_LABELS: Record<ExportFormat, string> = { graphspec: "GraphSpec", weaveflow: "Weaveflow", graphmd: "GRAPH.md" };

/** File > Export as …: converts first (nothing written) and shows what would be lost; the
 * user then confirms (`confirmExport`) or cancels. */
export async function exportAs(format: ExportFormat) {
  const v = ui.active();
  if (!v) return ui.toast("info", "Open a document to export it.");
  try {
    const answer = await backend().exportDocument(v.id, format, false);
    ui.set({ exportConfirm: { docId: v.id, format, answer } });
  } catch (err) {
    ui.toast("error", `Export failed: ${errorMessage(err)}`);
  }
}

export async function confirmExport() {
  const pending = ui.get().exportConfirm;
  if (!pending) return;
  ui.set({ exportConfirm: null });
  try {
    const out = await backend().exportDocument(pending.docId, pending.format, true);
    if (out.written) ui.toast("info", `Exported as ${EXPORT_LABELS[pending.format]} to ${out.path ?? "the chosen file"}.`);
  } catch (err) {
    ui.toast("error", `Export failed (nothing written): ${errorMessage(err)}`);
  }
}

export function cancelExport() {
  ui.set({ exportConfirm: null });
}

/** File > Import…: the file opens as a new unsaved GraphSpec; its losses are the new
 * document's notices (Rust puts them there). */
export async function importDocument() {
  try {
    const out = await backend().importDialog();
    if (!out) return;
    ui.putDoc(out.view, true);
    const n = out.losses.length;
    // Also in the problems panel, where each loss links to its element (until the first edit).
    if (n) ui.set((s) => ({ extraDiagnostics: { ...s.extraDiagnostics, [out.view.id]: out.losses }, problemsOpen: true }));
    ui.toast(
      n ? "warning" : "info",
      n ? `Imported with ${n} loss${n === 1 ? "" : "es"}: see the notices. Save it to keep it.` : "Imported. Save it to keep it.",
    );
  } catch (err) {
    ui.toast("error", `Import failed: ${errorMessage(err)}`);
  }
}

export async function closeDocument() {
  await settled();
  const id = ui.get().activeId;
  if (!id) return;
  try {
    if (await backend().close(id)) ui.dropDoc(id);
    const next = ui.get().activeId;
    if (next)
      void backend()
        .setActive(next)
        .catch(() => {});
  } catch (err) {
    ui.toast("error", errorMessage(err));
  }
}

/** Shows a document (a tab click) and tells Rust, so the window title and menus follow. */
export function activate(id: string) {
  if (ui.get().activeId === id) return;
  ui.set({ activeId: id, selection: { nodes: [], edges: [] } });
  void backend()
    .setActive(id)
    .catch(() => {});
}

export async function resolveConflict(choice: ConflictChoice) {
  const v = ui.active();
  if (!v) return;
  try {
    ui.putDoc(await backend().resolveConflict(v.id, choice));
  } catch (err) {
    ui.toast("error", errorMessage(err));
  }
}

/** Light, dark, or following the system (the menu's "toggle theme" cycles through them). */
export function toggleTheme() {
  const order = ["system", "light", "dark"] as const;
  const cur = ui.get().theme;
  const next = order[(order.indexOf(cur) + 1) % order.length];
  ui.set({ theme: next });
  applyTheme(next);
  ui.toast("info", `Theme: ${next === "system" ? "follow the system" : next}.`);
}

export function applyTheme(t: "system" | "light" | "dark") {
  if (t === "system") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = t;
}

export function selectAll() {
  const v = ui.active();
  if (!v) return;
  ui.select({ nodes: v.spec.nodes.map((n) => n.id), edges: v.spec.edges.map((_, i) => i) });
}

export function clearSelection() {
  ui.select({ nodes: [], edges: [] });
}

/** Set by the notes and groups module: deletes selected notes and groups, true if any. */
let deleteAnnotations: () => Promise<boolean> = async () => false;
export function setAnnotationDelete(f: () => Promise<boolean>) {
  deleteAnnotations = f;
}
/** Set by the notes and groups module: the copied notes and groups. */
let annotationFragment: (f: Fragment, positions: Record<string, Position>) => Fragment = (f) => f;
export function setAnnotationFragment(f: typeof annotationFragment) {
  annotationFragment = f;
}

export async function deleteSelection() {
  const v = ui.active();
  if (!v) return;
  if (await deleteAnnotations()) return;
  const { nodes, edges } = ui.get().selection;
  // Collapsed groups' boxes (`group:<id>`) are not nodes of the document.
  const ids = nodes.filter((n) => n !== START && n !== END && !n.startsWith("group:"));
  if (ids.length) {
    await edit({ op: "remove_nodes", ids });
    ui.select({ nodes: [], edges: [] });
    return;
  }
  if (edges.length) {
    // One edge per edit, highest index first so the others keep their index.
    for (const i of [...edges].sort((a, b) => b - a)) await edit({ op: "disconnect", index: i });
    ui.select({ nodes: [], edges: [] });
  }
}

/** The clipboard text for the current selection, or null when nothing is selected. */
export function selectionFragmentText(): string | null {
  const v = ui.active();
  if (!v) return null;
  const sel = new Set(ui.get().selection.nodes);
  const positions = resolvePositions(v.spec, v.layout.positions);
  const f = annotationFragment(buildFragment(v.spec, positions, sel), positions);
  if (!f.nodes.length && !f.layout?.notes?.length) return null;
  return fragmentText(f);
}

async function writeClipboard(text: string) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    clipboardFallback = text; // no permission (or no clipboard): keep it in the app at least
  }
}
let clipboardFallback: string | null = null;

export async function copy(cut = false, preset?: string) {
  const text = preset ?? selectionFragmentText();
  if (!text) return ui.toast("info", "Select nodes to copy.");
  clipboardFallback = text;
  if (!preset) await writeClipboard(text);
  if (cut) await deleteSelection();
}

/** Pastes clipboard text: `text` comes from a paste event; without it, the clipboard is read. */
export async function paste(text?: string, at?: Position) {
  const v = ui.active();
  if (!v) return;
  let t = text;
  if (t === undefined) {
    try {
      t = await navigator.clipboard.readText();
    } catch {
      t = clipboardFallback ?? "";
    }
  }
  const parsed = parseFragment(t ?? "");
  if ("error" in parsed) return ui.toast("error", parsed.error);
  for (const w of parsed.warnings) ui.toast("warning", w);
  // Rust gives clashing ids fresh ones (its note says which) and answers the ids it pasted.
  const fragment = parsed.fragment;
  const where = at ?? pastePoint(fragment.layout?.positions ?? {});
  const d = await answer({ op: "paste", fragment: fragment as unknown as Record<string, unknown>, at: where } as Edit);
  if (d) ui.select({ nodes: d.created, edges: [] });
}

/** Where a paste lands: the centre of the view, offset so the fragment is centred there. */
function pastePoint(rel: Record<string, Position>): Position {
  const c = canvasController()?.centre() ?? { x: 0, y: 0 };
  const b = boundsOf(rel);
  return { x: Math.round(c.x - (b ? b.w / 2 : 100)), y: Math.round(c.y - (b ? b.h / 2 : 30)) };
}

export async function duplicate() {
  const v = ui.active();
  const text = selectionFragmentText();
  if (!v || !text) return ui.toast("info", "Select nodes to duplicate.");
  const positions = resolvePositions(v.spec, v.layout.positions);
  const sel = ui.get().selection.nodes.filter((id) => positions[id]);
  const b = boundsOf(Object.fromEntries(sel.map((id) => [id, positions[id]])));
  await paste(text, b ? { x: b.x + 40, y: b.y + 40 } : undefined);
}

/** Adds a node of `t` at `at` (flow coordinates of its top-left), or at the free spot nearest
 * the centre of the view (two adds in a row never land on each other). */
export async function addNode(t: TypeInfo, at?: Position) {
  const v = ui.active();
  if (!v) return;
  const c =
    at ??
    (() => {
      const m = canvasController()?.centre() ?? { x: 0, y: 0 };
      const want = { x: Math.round(m.x - NODE_W / 2), y: Math.round(m.y - NODE_H / 2) };
      return freeSpot(want, { w: NODE_W, h: NODE_H }, occupiedBoxes(v));
    })();
  const config =
    t.defaults && typeof t.defaults === "object" && !Array.isArray(t.defaults)
      ? structuredClone(t.defaults as Record<string, unknown>)
      : {};
  // Rust chooses the id (from the type, fresh in the document) and answers it.
  const d = await answer({ op: "add_node", type: t.type, config, position: { x: Math.round(c.x), y: Math.round(c.y) } });
  if (d) ui.select({ nodes: d.created, edges: [] });
}

/** Lays the graph out with the backend's engine (Rust, off the UI thread, with progress) and
 * sends it as one `apply_layout` edit (one undo step). Cancelled: nothing changes. */
export async function autoLayout(docId = ui.get().activeId) {
  const v = docId ? ui.get().docs[docId] : null;
  const b = ui.get().backend;
  if (!v || !b || ui.get().layoutBusy) return;
  ui.set({ layoutBusy: true, layoutProgress: 0 });
  try {
    const positions = await b.layoutDocument(v.id, (f) => ui.set({ layoutProgress: f }));
    if (!positions) return ui.toast("info", "Automatic layout cancelled: nothing was moved.");
    const ok = await edit({ op: "apply_layout", positions }, v.id);
    if (ok && ui.get().activeId === v.id) setTimeout(() => canvasController()?.fit(), 0);
  } catch (err) {
    ui.toast("error", `Automatic layout failed: ${errorMessage(err)}`);
  } finally {
    ui.set({ layoutBusy: false, layoutProgress: 0 });
  }
}

/** Stops the running automatic layout (its positions are not applied). */
export function cancelLayout() {
  ui.get().backend?.cancelLayout();
}

/** Selects a diagnostic's element and frames it in the view. */
export function revealElement(el: Element | undefined) {
  const v = ui.active();
  if (!v || !el) return;
  const positions = resolvePositions(v.spec, v.layout.positions);
  const rectOf = (ids: string[]) => boundsOf(Object.fromEntries(ids.filter((id) => positions[id]).map((id) => [id, positions[id]])));
  if (el.kind === "node") {
    ui.select({ nodes: [el.id], edges: [] });
    const r = rectOf([el.id]);
    if (r) canvasController()?.frame(r, 1.1);
  } else if (el.kind === "edge") {
    ui.select({ nodes: [], edges: [el.index] });
    const r = rectOf([el.from, el.to]);
    if (r) canvasController()?.frame(r, 1.1);
  } else {
    ui.select({ nodes: [], edges: [], graph: true });
  }
}

export function toggleHelp(open?: boolean) {
  ui.set((s) => ({ helpOpen: open ?? !s.helpOpen }));
}

export function focusSearch() {
  ui.set((s) => ({ registryOpen: true, focusSearchTick: s.focusSearchTick + 1 }));
}

/** Actions registered by the modules that own them (find bar, palette, focus, export image),
 * so this switch does not grow an import for each. */
const extraActions = new Map<string, () => unknown>();
export function registerAction(action: string, run: () => unknown) {
  extraActions.set(action, run);
}

/** Quit as the menu's Quit (Rust asks about unsaved documents). */
async function quit() {
  if (ui.get().backend?.kind !== "tauri") return;
  const { invoke } = await import("@tauri-apps/api/core");
  await invoke("quit").catch((err) => ui.toast("error", errorMessage(err)));
}

export async function runAction(action: string) {
  // A menu accelerator arrives here even while typing: in a text field, undo and redo are the
  // field's own.
  const el = document.activeElement as HTMLElement | null;
  // The text pane's editor has no history of its own: there, undo is the document's.
  const typing = !!el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.isContentEditable) && !el.closest("[data-text-pane]");
  switch (action) {
    case "undo":
      if (typing) return void document.execCommand("undo");
      return undo();
    case "redo":
      if (typing) return void document.execCommand("redo");
      return redo();
    case "toggle-theme":
      return toggleTheme();
    case "cut":
      return copy(true);
    case "copy":
      return copy(false);
    case "paste":
      return paste();
    case "duplicate":
      return duplicate();
    case "delete":
      return deleteSelection();
    case "select-all":
      return selectAll();
    case "auto-layout":
      return autoLayout();
    case "fit-view":
      return canvasController()?.fit();
    case "zoom-in":
      return canvasController()?.zoomIn();
    case "zoom-out":
      return canvasController()?.zoomOut();
    case "help":
      return toggleHelp();
    case "save":
      return save(false);
    case "save-as":
      return save(true);
    case "new":
      return newDocument(false);
    case "open":
      return openDocument();
    case "close":
      return closeDocument();
    case "import":
      return importDocument();
    case "export-graphspec":
      return exportAs("graphspec");
    case "export-weaveflow":
      return exportAs("weaveflow");
    case "export-graphmd":
      return exportAs("graphmd");
    case "focus-search":
      return focusSearch();
    case "escape":
      toggleHelp(false);
      return clearSelection();
    case "new-example":
      return newDocument(true);
    case "toggle-problems":
      return ui.set((s) => ({ problemsOpen: !s.problemsOpen }));
    case "quit":
      return quit();
    case "compare-with":
      return openCompareChooser();
    case "compare-file":
      return compareWithFile();
    case "compare-close":
      return closeCompare();
    default:
      // Commands that live in their own modules (find, palette, keyboard focus, images).
      return extraActions.get(action)?.();
  }
}
