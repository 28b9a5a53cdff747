// UI-only state (zustand): open documents as Rust last sent them, the active tab, the
// selection, panels and messages. The document itself is never edited here.
import { create } from "zustand";
import type { Diagnostic, DocumentView, ExportAnswer, ViewDelta } from "./bindings";
import { applyDelta } from "./api/delta";
import type { Backend, ExportFormat } from "./api/types";

export type Toast = { id: number; kind: "info" | "error" | "warning"; text: string };
export type Selection = { nodes: string[]; edges: number[]; graph?: boolean };

export type UiState = {
  backend: Backend | null;
  docs: Record<string, DocumentView>;
  order: string[];
  activeId: string | null;
  selection: Selection;
  /** Save refusals (and other answers that are not part of the validator's output). */
  extraDiagnostics: Record<string, Diagnostic[]>;
  toasts: Toast[];
  helpOpen: boolean;
  problemsOpen: boolean;
  registryOpen: boolean;
  focusSearchTick: number;
  layoutBusy: boolean;
  /** The running automatic layout's progress, in [0, 1]. */
  layoutProgress: number;
  renderMode: "dom" | "canvas";
  zoom: number;
  theme: "system" | "light" | "dark";
  /** An export waiting for the user to accept its losses (File > Export as …). */
  exportConfirm: { docId: string; format: ExportFormat; answer: ExportAnswer } | null;
  /** The document whose canvas has drawn its first frame (for `data-ready`). */
  readyDoc: string | null;
};

let toastId = 0;

/** Told of every view the store takes for a document: with the delta it was made from, or
 * `null` for a whole view (the text pane follows both: `textPane/`). */
export type ViewListener = (id: string, delta: ViewDelta | null) => void;
const viewListeners = new Set<ViewListener>();
export function onView(listener: ViewListener): () => void {
  viewListeners.add(listener);
  return () => viewListeners.delete(listener);
}
function told(id: string, delta: ViewDelta | null) {
  for (const l of viewListeners) l(id, delta);
}

function sameList<T>(a: readonly T[], b: readonly T[]) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

export const useUi = create<UiState>(() => ({
  backend: null,
  docs: {},
  order: [],
  activeId: null,
  selection: { nodes: [], edges: [] },
  extraDiagnostics: {},
  toasts: [],
  helpOpen: false,
  problemsOpen: true,
  registryOpen: true,
  focusSearchTick: 0,
  layoutBusy: false,
  layoutProgress: 0,
  renderMode: "dom",
  zoom: 1,
  theme: "system",
  readyDoc: null,
  exportConfirm: null,
}));

/** A delta is being applied: `putDoc` leaves the telling to `applyDelta`. */
let applying = false;

export const ui = {
  get: useUi.getState,
  set: useUi.setState,
  active(): DocumentView | null {
    const s = useUi.getState();
    return s.activeId ? (s.docs[s.activeId] ?? null) : null;
  },
  putDoc(view: DocumentView, activate = false) {
    useUi.setState((s) => {
      const order = s.order.includes(view.id) ? s.order : [...s.order, view.id];
      const prev = s.docs[view.id];
      // Keep the selection only where it still exists (nodes removed, edges re-indexed).
      let selection = s.selection;
      if ((activate || s.activeId === view.id) && prev) {
        // Which selected nodes still exist: one pass over the nodes against the (small)
        // selection, not a set of every id (100,000 of them on a large graph, at every edit).
        const want = new Set(s.selection.nodes);
        const still = new Set(["__start__", "__end__"]);
        if (want.size) for (const n of view.spec.nodes) if (want.has(n.id)) still.add(n.id);
        selection = {
          nodes: s.selection.nodes.filter((n) => still.has(n)),
          edges: s.selection.edges.filter((i) => i < view.spec.edges.length),
          graph: s.selection.graph,
        };
      }
      return {
        docs: { ...s.docs, [view.id]: view },
        order,
        activeId: activate || !s.activeId ? view.id : s.activeId,
        selection: activate && s.activeId !== view.id ? { nodes: [], edges: [] } : selection,
      };
    });
    if (!applying) told(view.id, null);
  },
  /** Applies what an edit, undo or redo answered to the view held (no-op if it was closed). */
  applyDelta(delta: ViewDelta) {
    const held = useUi.getState().docs[delta.id];
    if (!held) return;
    applying = true;
    try {
      ui.putDoc(applyDelta(held, delta));
    } finally {
      applying = false;
    }
    told(delta.id, delta);
  },
  /** Forgets a document's save refusals (an edit answered): a no-op when there are none, so
   * the panels that read them keep their memoised work. */
  clearExtraDiagnostics(id: string) {
    if (useUi.getState().extraDiagnostics[id]?.length) useUi.setState((s) => ({ extraDiagnostics: { ...s.extraDiagnostics, [id]: [] } }));
  },
  dropDoc(id: string) {
    useUi.setState((s) => {
      const docs = { ...s.docs };
      delete docs[id];
      const order = s.order.filter((x) => x !== id);
      return { docs, order, activeId: s.activeId === id ? (order[order.length - 1] ?? null) : s.activeId };
    });
  },
  select(sel: Selection) {
    // The same selection again (cleared after a delete that already cleared it) renders nothing.
    const cur = useUi.getState().selection;
    if (sameList(cur.nodes, sel.nodes) && sameList(cur.edges, sel.edges) && !!cur.graph === !!sel.graph) return;
    useUi.setState({ selection: sel });
  },
  /** Shows a notice for `ms` milliseconds (errors, and news the user must read, stay longer). */
  toast(kind: Toast["kind"], text: string, ms = kind === "error" ? 9000 : 4000) {
    const id = ++toastId;
    useUi.setState((s) => ({ toasts: [...s.toasts.slice(-4), { id, kind, text }] }));
    setTimeout(() => useUi.setState((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })), ms);
  },
};
