// Opening a subgraph node's document in a tab (double-click, Enter, the palette) and going
// back to its parent (the breadcrumb, the palette). Rust resolves and opens (`open_subgraph`);
// the UI records which tab came from where, and the parent's viewport so it is shown again
// where the user left it.
import { activate, registerAction } from "../actions";
import { canvasController } from "../canvas/canvasController";
import { errorMessage } from "../api/types";
import { useFocus } from "../keyboard/focusStore";
import { ui } from "../store";
import { trail, useCrumbs, withOpened } from "./breadcrumbs";
import { isSubgraphNode } from "./mark";

const isOpen = (id: string) => !!ui.get().docs[id];

/** Opens the document node `nodeId` of `docId` refers to. A reference that does not resolve is
 * refused by Rust with the node's own message (shown as an error toast). */
export async function openSubgraph(nodeId: string, docId = ui.get().activeId): Promise<boolean> {
  const b = ui.get().backend;
  if (!docId || !b) return false;
  if (!b.openSubgraph) {
    ui.toast("info", "Subgraphs open in the desktop app.");
    return false;
  }
  const parentViewport = docId === ui.get().activeId ? canvasController()?.viewport?.() : undefined;
  try {
    const child = await b.openSubgraph(docId, nodeId);
    useCrumbs.setState((s) => ({ crumbs: withOpened(s.crumbs, child.id, { parentId: docId, nodeId, parentViewport }, isOpen) }));
    ui.putDoc(child, true);
    return true;
  } catch (err) {
    ui.toast("error", errorMessage(err));
    return false;
  }
}

/** Shows an open document again; coming back to a parent, at the viewport it was left at. */
export function showDocument(id: string) {
  const child = ui.get().activeId;
  const crumb = child ? useCrumbs.getState().crumbs[child] : undefined;
  const held = ui.get().docs[id];
  // Only the tab the child was opened from gets its viewport back, and only from that child's
  // crumb (the Canvas opens a tab at `layout.viewport`).
  if (held && crumb?.parentId === id && crumb.parentViewport) {
    const back = trail(useCrumbs.getState().crumbs, child, isOpen).includes(id);
    if (back) ui.putDoc({ ...held, layout: { ...held.layout, viewport: crumb.parentViewport } });
  }
  activate(id);
}

/** The subgraph node the command acts on: the keyboard-focused node, else the one selected. */
function chosenNode(): string | null {
  const v = ui.active();
  if (!v) return null;
  const f = useFocus.getState().focus;
  if (f?.kind === "node" && isSubgraphNode(v, f.id)) return f.id;
  const sel = ui.get().selection.nodes;
  return sel.find((id) => isSubgraphNode(v, id)) ?? null;
}

export async function openChosenSubgraph() {
  const id = chosenNode();
  if (!id) return ui.toast("info", "Select a subgraph node first (a node that stands for another graph).");
  await openSubgraph(id);
}

/** Back to the tab the active one was opened from. */
export function backToParent() {
  const id = ui.get().activeId;
  const t = trail(useCrumbs.getState().crumbs, id, isOpen);
  if (t.length < 2) return ui.toast("info", "This tab was not opened from a subgraph node.");
  showDocument(t[t.length - 2]);
}

registerAction("open-subgraph", () => openChosenSubgraph());
registerAction("subgraph-parent", backToParent);
