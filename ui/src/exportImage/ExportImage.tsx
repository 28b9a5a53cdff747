// The Export image dialog: SVG or PNG, the whole graph or the selection, the PNG's scale. The
// picture is in the theme the canvas shows now. Enter exports, Esc cancels.
import { useUi } from "../store";
import { closeExportImage, currentTheme, runExportImage, useExportImage } from "./exportImageState";

export function ExportImage() {
  const s = useExportImage();
  const selected = useUi((u) => u.selection.nodes.length);
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
            The selection ({selected} node{selected === 1 ? "" : "s"} and the edges between them)
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
