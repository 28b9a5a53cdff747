// File > Export image: what the dialog holds (format, scope, scale) and the call to Rust, which
// asks where to save, draws the picture (crates/picture) and writes it.
import { create } from "zustand";
import { registerAction } from "../actions";
import { useAnnotationSelection } from "../annotations/actions";
import { groupOfBox } from "../annotations/frames";
import type { ImageRequest } from "../api/types";
import { errorMessage } from "../api/types";
import { ui } from "../store";

export type ImageScope = "whole" | "selection";

type ExportImageState = {
  open: boolean;
  format: ImageRequest["format"];
  scope: ImageScope;
  /** PNG pixels per canvas unit. */
  scale: number;
  busy: boolean;
};

export const useExportImage = create<ExportImageState>(() => ({ open: false, format: "svg", scope: "whole", scale: 2, busy: false }));

/** The theme the canvas shows now ("follow the system" resolved). */
export function currentTheme(): "light" | "dark" {
  const t = ui.get().theme;
  if (t !== "system") return t;
  return typeof window !== "undefined" && window.matchMedia?.("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

/** What is selected in the active document (the "selection" scope): nodes, notes and groups,
 * a collapsed group's box counting as its group. */
export function selectedParts(): { nodes: string[]; notes: string[]; groups: string[] } {
  const nodes: string[] = [];
  const groups = [...useAnnotationSelection.getState().groups];
  for (const id of ui.get().selection.nodes) {
    const g = groupOfBox(id);
    if (g === null) nodes.push(id);
    else if (!groups.includes(g)) groups.push(g);
  }
  return { nodes, notes: [...useAnnotationSelection.getState().notes], groups };
}

/** How many things are selected (nodes, boxes, notes, groups). */
export function selectionSize(): number {
  const p = selectedParts();
  return p.nodes.length + p.notes.length + p.groups.length;
}

export function openExportImage() {
  const v = ui.active();
  if (!v) return ui.toast("info", "Open a document to export a picture of it.");
  if (!ui.get().backend?.exportImage) return ui.toast("info", "Pictures are drawn by the desktop app: export them there.");
  // A selection is what the user most likely wants a picture of; otherwise the whole graph.
  useExportImage.setState({ open: true, scope: selectionSize() ? "selection" : "whole", busy: false });
}

export function closeExportImage() {
  useExportImage.setState({ open: false, busy: false });
}

/** What the dialog sends. */
export function imageRequest(s: Pick<ExportImageState, "format" | "scope" | "scale">): ImageRequest {
  const req: ImageRequest = { format: s.format, theme: currentTheme() };
  if (s.scope === "selection") Object.assign(req, selectedParts());
  if (s.format === "png") req.scale = s.scale;
  return req;
}

export async function runExportImage() {
  const v = ui.active();
  const b = ui.get().backend;
  if (!v || !b?.exportImage) return closeExportImage();
  const s = useExportImage.getState();
  useExportImage.setState({ busy: true });
  try {
    const out = await b.exportImage(v.id, imageRequest(s));
    closeExportImage();
    if (!out.written) return;
    const size = out.format === "png" ? `${out.width} × ${out.height} px` : `${out.width} × ${out.height}`;
    const capped = out.capped ? ` (scaled to ${out.scale.toFixed(2)}× to stay under 40 megapixels)` : "";
    ui.toast("info", `Picture of ${out.nodes} node${out.nodes === 1 ? "" : "s"} written to ${out.path}: ${size}${capped}.`);
  } catch (err) {
    useExportImage.setState({ busy: false });
    ui.toast("error", `Export image failed (nothing written): ${errorMessage(err)}`);
  }
}

registerAction("export-image", openExportImage);
