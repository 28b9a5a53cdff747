// The Export image dialog: SVG or PNG, the whole graph or the selection, the PNG's scale. The
// picture is in the theme the canvas shows now. Enter exports, Esc cancels.
import { useAnnotationSelection } from "../annotations/actions";
import { useUi } from "../store";
import { closeExportImage, currentTheme, runExportImage, selectedParts, useExportImage } from "./exportImageState";

/** "2 nodes, 1 note and 1 group" (only what there is). */
export function describeSelection(p: { nodes: string[]; notes: string[]; groups: string[] }): string {
  const part = (n: number, one: string) => (n ? `${n} ${one}${n === 1 ? "" : "s"}` : "");
  const parts = [part(p.nodes.length, "node"), part(p.notes.length, "note"), part(p.groups.length, "group")].filter(Boolean);
  if (!parts.length) return "nothing selected";
  return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

export function ExportImage() {
  const s = useExportImage();
  // Re-read when either selection changes.
  useUi((u) => u.selection);
  useAnnotationSelection((a) => a.notes.length + a.groups.length);
  const parts = selectedParts();
  const selected = parts.nodes.length + parts.notes.length + parts.groups.length;
  const fileName = useUi((u) => (u.activeId ? u.docs[u.activeId]?.fileName : undefined));
  if (!s.open) return null;
  const set = useExportImage.setState;
  return (
    <div className="overlay" onClick={closeExportImage}>
      <form
        className="help export-image"
        data-testid="export-image"
        role="dialog"
        aria-label="Export image"
        onClick={(e) => e.stopPropagation()}
        onKeyDown={(e) => e.key === "Escape" && closeExportImage()}
        onSubmit={(e) => {
          e.preventDefault();
          void runExportImage();
        }}
      >
        <div className="panel-head">Export a picture of {fileName ?? "the document"}</div>
        <fieldset>
          <legend>Format</legend>
          <label>
            <input
              type="radio"
              name="image-format"
              data-testid="export-image-svg"
              checked={s.format === "svg"}
              onChange={() => set({ format: "svg" })}
            />{" "}
            SVG (sharp at any size, text searchable)
          </label>
          <label>
            <input
              type="radio"
              name="image-format"
              data-testid="export-image-png"
              checked={s.format === "png"}
              onChange={() => set({ format: "png" })}
            />{" "}
            PNG
          </label>
          {s.format === "png" && (
            <label className="export-image-scale">
              Scale{" "}
              <select data-testid="export-image-scale" value={s.scale} onChange={(e) => set({ scale: Number(e.target.value) })}>
                <option value={1}>1×</option>
                <option value={2}>2× (high-density screens)</option>
                <option value={3}>3×</option>
              </select>
            </label>
          )}
        </fieldset>
        <fieldset>
          <legend>What</legend>
          <label>
            <input
              type="radio"
              name="image-scope"
              data-testid="export-image-whole"
              checked={s.scope === "whole"}
              onChange={() => set({ scope: "whole" })}
            />{" "}
            The whole graph
          </label>
          <label>
            <input
              type="radio"
              name="image-scope"
              data-testid="export-image-selection"
              disabled={selected === 0}
              checked={s.scope === "selection"}
              onChange={() => set({ scope: "selection" })}
            />{" "}
            The selection ({describeSelection(parts)}, with the edges between them)
          </label>
        </fieldset>
        <p className="export-image-note">In the {currentTheme()} theme, as the canvas shows it now.</p>
        <p className="export-buttons">
          <button type="button" data-testid="export-image-cancel" onClick={closeExportImage}>
            Cancel
          </button>{" "}
          <button type="submit" data-testid="export-image-go" autoFocus disabled={s.busy}>
            {s.busy ? "Drawing…" : "Export…"}
          </button>
        </p>
      </form>
    </div>
  );
}
