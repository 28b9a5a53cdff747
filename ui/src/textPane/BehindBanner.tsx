// Over the canvas while the text typed in the pane does not read: the canvas shows the last
// text that read, and says so, with the place the reader stopped at.
import type { DocumentView } from "../bindings";
import { showTextError } from "./TextPane";

export function BehindBanner({ view }: { view: DocumentView }) {
  const e = view.textError;
  if (!e) return null;
  const at = e.span ? `line ${e.span.line}, column ${e.span.column}` : "";
  return (
    <div className="text-behind" data-testid="canvas-behind" role="alert">
      <span>
        <strong>The canvas is behind the text.</strong> It shows the last text that read; the text does not read{at ? ` at ${at}` : ""}:{" "}
        {e.message}. Saving waits until it reads.
      </span>
      <button type="button" onClick={showTextError} data-testid="canvas-behind-show">
        Show in the text
      </button>
    </div>
  );
}
