// The handle between a side pane and the canvas: drag it, or focus it and press the arrow keys,
// to make the pane wider or narrower. The width is kept between runs (keptSettings.ts); the pane
// reads it from the CSS variable `--pane-<name>` (styles.css).
import { useLayoutEffect, useRef } from "react";
import { setSplit, useKept } from "./keptSettings";

type Props = {
  /** The pane's name, as kept (`registry`, `inspector`). */
  pane: string;
  /** Which side of the handle the pane is on: dragging away from it makes it wider. */
  side: "left" | "right";
  defaultWidth: number;
  min: number;
  label: string;
};

const STEP = 16;
/** A side pane never takes more than this share of the window. */
const MAX_SHARE = 0.45;

export function paneWidth(width: number, min: number, windowWidth: number) {
  return Math.round(Math.max(min, Math.min(width, Math.max(min, windowWidth * MAX_SHARE))));
}

export function Splitter({ pane, side, defaultWidth, min, label }: Props) {
  const kept = useKept((s) => s.splits[pane]);
  const width = paneWidth(kept ?? defaultWidth, min, window.innerWidth);
  const drag = useRef<{ x: number; width: number } | null>(null);

  useLayoutEffect(() => {
    document.documentElement.style.setProperty(`--pane-${pane}`, `${width}px`);
  }, [pane, width]);

  const widthAt = (clientX: number) => {
    const d = drag.current;
    if (!d) return width;
    const dx = clientX - d.x;
    return paneWidth(side === "left" ? d.width + dx : d.width - dx, min, window.innerWidth);
  };

  return (
    // biome-ignore lint/a11y/useSemanticElements: an <hr> cannot be dragged; a focusable separator is the ARIA pattern for a splitter
    <div
      className="splitter"
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={width}
      aria-valuemin={min}
      aria-valuemax={paneWidth(Number.POSITIVE_INFINITY, min, window.innerWidth)}
      tabIndex={0}
      data-testid={`splitter-${pane}`}
      onPointerDown={(e) => {
        if (e.button !== 0) return;
        e.preventDefault();
        e.currentTarget.setPointerCapture(e.pointerId);
        drag.current = { x: e.clientX, width };
      }}
      onPointerMove={(e) => {
        if (drag.current) setSplit(pane, widthAt(e.clientX), false);
      }}
      onPointerUp={(e) => {
        if (!drag.current) return;
        setSplit(pane, widthAt(e.clientX), true);
        drag.current = null;
      }}
      onPointerCancel={() => {
        drag.current = null;
      }}
      onDoubleClick={() => setSplit(pane, defaultWidth, true)}
      onKeyDown={(e) => {
        const grow = side === "left" ? "ArrowRight" : "ArrowLeft";
        const shrink = side === "left" ? "ArrowLeft" : "ArrowRight";
        if (e.key !== grow && e.key !== shrink) return;
        e.preventDefault();
        setSplit(pane, paneWidth(width + (e.key === grow ? STEP : -STEP), min, window.innerWidth), true);
      }}
    />
  );
}
