// Notes and groups: what the user can do with them (palette commands, Ctrl+G, the buttons on
// notes and frames). Every change is one edit Rust applies and answers (crates/doc
// src/annotations/); the selection of notes and groups is UI state, beside the node selection.
import { create } from "zustand";
import { edit, registerAction, setAnnotationDelete, setAnnotationFragment } from "../actions";
import { canvasController } from "../canvas/canvasController";
import { withAnnotations } from "../lib/clipboard";
import { freeSpot, occupiedBoxes } from "../lib/freeSpot";
import { END, START } from "../lib/ids";
import { ui, useUi } from "../store";

export type AnnotationSelection = { notes: string[]; groups: string[]; editing: string | null };

export const useAnnotationSelection = create<AnnotationSelection>(() => ({ notes: [], groups: [], editing: null }));
export const annotationSelection = {
  get: useAnnotationSelection.getState,
  set: useAnnotationSelection.setState,
  clear() {
    useAnnotationSelection.setState({ notes: [], groups: [], editing: null });
  },
};

// Selecting nodes or edges without Ctrl (a click, Esc, a box) leaves notes and groups.
let ours = false;
useUi.subscribe((s, prev) => {
  if (ours || (s.selection === prev.selection && s.activeId === prev.activeId)) return;
  const a = useAnnotationSelection.getState();
  // Cleared, or a fresh single pick (a plain click): the notes and groups are no longer selected.
  const cleared = s.selection.nodes.length + s.selection.edges.length <= 1;
  if ((a.notes.length || a.groups.length || a.editing) && (cleared || s.activeId !== prev.activeId)) annotationSelection.clear();
});

/** Selects one note or group (with `add`, adds it to the selection). */
export function selectAnnotation(kind: "note" | "group", id: string, add: boolean) {
  const a = useAnnotationSelection.getState();
  const key = kind === "note" ? "notes" : "groups";
  const list = a[key];
  const next = add ? (list.includes(id) ? list.filter((x) => x !== id) : [...list, id]) : [id];
  if (!add) {
    ours = true;
    ui.select({ nodes: [], edges: [] });
    ours = false;
    useAnnotationSelection.setState({ notes: [], groups: [], [key]: next, editing: null });
  } else useAnnotationSelection.setState({ [key]: next } as Partial<AnnotationSelection>);
}

/** A new note's size (Rust's default, crates/doc/src/annotations/rules.rs). */
const NOTE_W = 240;
const NOTE_H = 160;

export async function addNote(at?: { x: number; y: number }) {
  const v = ui.active();
  if (!v) return;
  const c = at ?? canvasController()?.centre() ?? { x: 0, y: 0 };
  const want = { x: Math.round(c.x - NOTE_W / 2), y: Math.round(c.y - NOTE_H / 2) };
  // Where it was asked for, or the free spot nearest the centre of the view: nothing covers it.
  const position = at ? want : freeSpot(want, { w: NOTE_W, h: NOTE_H }, occupiedBoxes(v));
  const before = new Set(v.layout.notes.map((n) => n.id));
  if (await edit({ op: "add_note", text: "", position })) {
    const added = ui.active()?.layout.notes.find((n) => !before.has(n.id));
    if (added) useAnnotationSelection.setState({ notes: [added.id], groups: [], editing: added.id });
  }
}

/** Ctrl+G: the selected nodes, notes and groups become one group. */
export async function groupSelection() {
  const v = ui.active();
  if (!v) return;
  const nodes = ui.get().selection.nodes.filter((n) => n !== START && n !== END);
  const { notes, groups } = useAnnotationSelection.getState();
  if (!nodes.length && !notes.length && !groups.length) return ui.toast("info", "Select nodes or notes to group.");
  const before = new Set(v.layout.groups.map((g) => g.id));
  if (await edit({ op: "add_group", nodes, notes, groups, name: `Group ${v.layout.groups.length + 1}` })) {
    const added = ui.active()?.layout.groups.find((g) => !before.has(g.id));
    if (added) selectAnnotation("group", added.id, false);
  }
}

function selectedGroups(): string[] {
  return useAnnotationSelection.getState().groups;
}

export async function ungroup(ids = selectedGroups()) {
  if (!ids.length) return ui.toast("info", "Select a group to ungroup.");
  for (const id of ids) await edit({ op: "ungroup", id });
  annotationSelection.clear();
}

export async function setCollapsed(id: string, collapsed: boolean) {
  await edit({ op: "set_group", id, collapsed });
}

export async function toggleCollapse(ids = selectedGroups()) {
  const v = ui.active();
  if (!v || !ids.length) return ui.toast("info", "Select a group to collapse or expand.");
  for (const id of ids) {
    const g = v.layout.groups.find((x) => x.id === id);
    if (g) await setCollapsed(id, !g.collapsed);
  }
}

/** Delete with notes or groups selected: notes go, groups are ungrouped (their nodes stay).
 * True when there was something of ours to delete. */
export async function deleteAnnotations(): Promise<boolean> {
  const { notes, groups } = useAnnotationSelection.getState();
  if (!notes.length && !groups.length) return false;
  if (notes.length) await edit({ op: "remove_notes", ids: notes });
  for (const id of groups) await edit({ op: "ungroup", id });
  annotationSelection.clear();
  return true;
}

export async function renameGroup(id: string, name: string) {
  const v = ui.active();
  const g = v?.layout.groups.find((x) => x.id === id);
  if (!g || !name.trim() || name === g.name) return;
  await edit({ op: "set_group", id, name });
}

registerAction("add-note", () => addNote());
registerAction("group-selection", groupSelection);
registerAction("ungroup", () => ungroup());
registerAction("toggle-collapse", () => toggleCollapse());

setAnnotationDelete(deleteAnnotations);

// Copy: the selected notes and groups, and every group whose nodes are all copied, go with the
// nodes (nested groups come along with their parent).
setAnnotationFragment((f, positions) => {
  const v = ui.active();
  if (!v || (!v.layout.notes.length && !v.layout.groups.length)) return f;
  const sel = useAnnotationSelection.getState();
  const copied = new Set(f.nodes.map((n) => n.id));
  const groups = new Set(sel.groups);
  for (const g of v.layout.groups) if (g.nodes.length && g.nodes.every((n) => copied.has(n))) groups.add(g.id);
  let grew = true;
  while (grew) {
    grew = false;
    for (const g of v.layout.groups)
      if (g.parent && groups.has(g.parent) && !groups.has(g.id)) {
        groups.add(g.id);
        grew = true;
      }
  }
  const notes = new Set(sel.notes);
  for (const g of v.layout.groups) if (groups.has(g.id)) for (const n of g.notes) notes.add(n);
  return withAnnotations(f, positions, v.layout, notes, groups);
});
