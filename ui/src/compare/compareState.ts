// The compare view and the conflict report of the active document, as the UI holds them: what
// Rust answered (trellis-doc's compare and conflicts modules, through src-tauri/src/compare.rs),
// never computed here. Acting on a change or a conflict is one edit in Rust; its answer is
// applied like any edit's, and the view is asked for again.
import { create } from "zustand";
import type {
  CompareChange,
  CompareTargets,
  CompareView,
  ConflictPick,
  ConflictsAnswer,
  ConflictsView,
  DocumentView,
  Point,
  ViewDelta,
} from "../bindings";
import { canvasController } from "../canvas/canvasController";
import { errorMessage } from "../api/types";
import { boundsOf } from "../lib/geometry";
import { ui } from "../store";

export type CompareUi = {
  /** The document the compare view belongs to. */
  docId: string | null;
  view: CompareView | null;
  /** The chooser ("Compare with…"): revisions and branches, while open. */
  chooser: { docId: string; targets: CompareTargets | null } | null;
  /** The change chosen in the list (framed on the canvas). */
  selected: string | null;
  busy: boolean;
  /** Conflict reports by document (absent: not asked yet; null: none). */
  conflicts: Record<string, ConflictsView | null>;
};

export const useCompare = create<CompareUi>(() => ({
  docId: null,
  view: null,
  chooser: null,
  selected: null,
  busy: false,
  conflicts: {},
}));

async function invoke<T>(cmd: string, args: Record<string, unknown>): Promise<T> {
  if (ui.get().backend?.kind !== "tauri") throw new Error("Compare and conflict resolution work in the desktop app.");
  const { invoke } = await import("@tauri-apps/api/core");
  return invoke<T>(cmd, args);
}

/** The compare view of `docId`, when it is the one compared. */
export function compareOf(docId: string | null | undefined): CompareView | null {
  const s = useCompare.getState();
  return docId && s.docId === docId ? s.view : null;
}

/** File > Compare With…: the chooser, with the file's recent commits and other branches. */
export async function openCompareChooser() {
  const id = ui.get().activeId;
  if (!id) return ui.toast("info", "Open a document to compare it.");
  useCompare.setState({ chooser: { docId: id, targets: null } });
  try {
    const targets = await invoke<CompareTargets>("compare_targets", { docId: id });
    if (useCompare.getState().chooser?.docId === id) useCompare.setState({ chooser: { docId: id, targets } });
  } catch (err) {
    useCompare.setState({ chooser: null });
    ui.toast("error", errorMessage(err));
  }
}

export function closeChooser() {
  useCompare.setState({ chooser: null });
}

function shown(docId: string, view: CompareView | null) {
  if (!view) return;
  useCompare.setState({ docId, view, chooser: null, selected: null });
  if (!view.changes.length) ui.toast("info", `No difference with ${view.against}.`);
}

export async function compareWithRevision(rev: string) {
  const id = ui.get().activeId;
  if (!id) return;
  useCompare.setState({ busy: true });
  try {
    shown(id, await invoke<CompareView>("compare_with_revision", { docId: id, rev }));
  } catch (err) {
    ui.toast("error", errorMessage(err));
  } finally {
    useCompare.setState({ busy: false });
  }
}

export async function compareWithFile() {
  const id = ui.get().activeId;
  if (!id) return ui.toast("info", "Open a document to compare it.");
  useCompare.setState({ busy: true });
  try {
    shown(id, await invoke<CompareView | null>("compare_with_file", { docId: id }));
  } catch (err) {
    ui.toast("error", errorMessage(err));
  } finally {
    useCompare.setState({ busy: false });
  }
}

/** Leaves the compare view: the canvas is the normal canvas again. */
export async function closeCompare() {
  const { docId } = useCompare.getState();
  useCompare.setState({ docId: null, view: null, selected: null, chooser: null });
  if (docId) await invoke("compare_close", { docId }).catch(() => {});
}

/** Asks Rust for the view again (after an edit, an undo, a redo, a reload). */
export async function refreshCompare(docId: string) {
  if (useCompare.getState().docId !== docId) return;
  try {
    const view = await invoke<CompareView | null>("compare_view", { docId });
    if (useCompare.getState().docId !== docId) return;
    if (view) useCompare.setState({ view });
    else useCompare.setState({ docId: null, view: null });
  } catch (err) {
    ui.toast("error", errorMessage(err));
  }
}

function applied(delta: ViewDelta) {
  ui.set((s) => ({ extraDiagnostics: { ...s.extraDiagnostics, [delta.id]: [] } }));
  ui.applyDelta(delta);
}

/** Revert (or take theirs): one edit in Rust, undone by one Ctrl+Z. */
export async function takeChange(key: string) {
  const { docId } = useCompare.getState();
  if (!docId) return;
  try {
    applied(await invoke<ViewDelta>("compare_take", { docId, key }));
    await refreshCompare(docId);
  } catch (err) {
    ui.toast("error", errorMessage(err));
  }
}

/** Where a change's nodes are: on the canvas now, or the ghosts' old places. */
export function changePositions(view: CompareView, change: CompareChange, positions: Record<string, Point>): Record<string, Point> {
  const out: Record<string, Point> = {};
  for (const id of change.nodes) {
    const ghost = view.ghosts.find((g) => g.id === id);
    const p = positions[id] ?? ghost?.position;
    if (p) out[id] = p;
  }
  return out;
}

/** Chooses a change in the list and frames it on the canvas. */
export function frameChange(change: CompareChange, doc: DocumentView) {
  const view = useCompare.getState().view;
  useCompare.setState({ selected: change.key });
  if (!view) return;
  const rect = boundsOf(changePositions(view, change, doc.layout.positions));
  if (rect) canvasController()?.frame({ x: rect.x - 120, y: rect.y - 90, w: rect.w + 240, h: rect.h + 180 }, 1.2);
  const present = change.nodes.filter((id) => doc.spec.nodes.some((n) => n.id === id));
  if (change.element === "node" && present.length) ui.select({ nodes: present, edges: [] });
}

/** Reads the conflict report beside a document (once per document, and after a save). */
export async function loadConflicts(docId: string) {
  // Report files beside documents are read by the desktop app only.
  if (ui.get().backend?.kind !== "tauri") return;
  try {
    const answer = await invoke<ConflictsAnswer>("conflict_report", { docId });
    useCompare.setState((s) => ({ conflicts: { ...s.conflicts, [docId]: answer.view ?? null } }));
    if (answer.notice) ui.toast(answer.notice.severity === "info" ? "info" : "warning", answer.notice.message);
  } catch (err) {
    ui.toast("error", errorMessage(err));
  }
}

/** Picks ours, theirs, base, an edited value, or marks a conflict resolved. */
export async function pickConflict(docId: string, index: number, pick: ConflictPick): Promise<boolean> {
  try {
    const delta = await invoke<ViewDelta | null>("conflict_pick", { docId, index, pick });
    if (delta) applied(delta);
    await loadConflicts(docId);
    return true;
  } catch (err) {
    ui.toast("error", errorMessage(err));
    return false;
  }
}
