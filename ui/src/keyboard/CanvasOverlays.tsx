// What the canvas shows over both drawings for the find bar and the keyboard: match outlines,
// the keyboard focus ring, the live region a screen reader reads, and the connect prompt (C).
// Rendered inside the ReactFlowProvider (it reads the viewport) and lends the viewport to the
// modules outside React Flow's hooks (viewportAccess.ts).
import { useReactFlow, useStore, useStoreApi } from "@xyflow/react";
import { useEffect, useMemo, useState } from "react";
import type { DocumentView, Point } from "../bindings";
import { setViewportAccess } from "../canvas/viewportAccess";
import { FindHighlights } from "../find/FindHighlights";
import { sizeOf } from "../lib/geometry";
import { END } from "../lib/ids";
import { useFocus } from "./focusStore";
import { announce, connectTo, installCanvasKeys } from "./keyboardNav";
import "./keyboard.css";

export function CanvasOverlays({ view, positions }: { view: DocumentView; positions: Record<string, Point> }) {
  const rf = useReactFlow();
  const [tx, ty, z] = useStore((s) => s.transform);
  const width = useStore((s) => s.width);
  const height = useStore((s) => s.height);
  const store = useStoreApi();
  const t = { tx, ty, z, width, height };

  useEffect(() => {
    setViewportAccess({
      get: () => rf.getViewport(),
      set: (v) => void rf.setViewport(v),
      size: () => ({ width: store.getState().width, height: store.getState().height }),
    });
    return () => setViewportAccess(null);
  }, [rf, store]);
  useEffect(() => installCanvasKeys(), []);
  // Another document: the focus starts again.
  useEffect(() => () => useFocus.setState({ focus: null, connecting: false }), [view.id]);

  return (
    <>
      <FindHighlights positions={positions} t={t} />
      <FocusRing view={view} positions={positions} t={t} />
      <ConnectPrompt view={view} />
    </>
  );
}

function FocusRing({
  view,
  positions,
  t,
}: {
  view: DocumentView;
  positions: Record<string, Point>;
  t: { tx: number; ty: number; z: number };
}) {
  const focus = useFocus((s) => s.focus);
  const text = useMemo(() => announce(view, focus), [view, focus]);
  let ring: React.ReactNode = null;
  if (focus) {
    const ids =
      focus.kind === "node"
        ? [focus.id]
        : [view.spec.edges[focus.index]?.from, view.spec.edges[focus.index]?.to].filter((x): x is string => !!x);
    const boxes = ids.map((id) => (positions[id] ? { p: positions[id], s: sizeOf(id) } : null)).filter((b) => !!b);
    if (boxes.length) {
      const { tx, ty, z } = t;
      if (focus.kind === "node") {
        const { p, s } = boxes[0];
        ring = (
          <div
            className="focus-ring"
            data-testid="focus-ring"
            data-focus={`node:${focus.id}`}
            style={{ left: p.x * z + tx - 5, top: p.y * z + ty - 5, width: s.w * z + 10, height: s.h * z + 10 }}
          />
        );
      } else if (boxes.length === 2) {
        const a = { x: (boxes[0].p.x + boxes[0].s.w) * z + tx, y: (boxes[0].p.y + boxes[0].s.h / 2) * z + ty };
        const b = { x: boxes[1].p.x * z + tx, y: (boxes[1].p.y + boxes[1].s.h / 2) * z + ty };
        ring = (
          <svg className="focus-edge" data-testid="focus-ring" data-focus={`edge:${focus.index}`} aria-hidden>
            <line x1={a.x} y1={a.y} x2={b.x} y2={b.y} />
          </svg>
        );
      }
    }
  }
  return (
    <>
      {ring}
      <div className="sr-only" role="status" aria-live="polite" data-testid="focus-announce">
        {text}
      </div>
    </>
  );
}

function ConnectPrompt({ view }: { view: DocumentView }) {
  const connecting = useFocus((s) => s.connecting);
  const focus = useFocus((s) => s.focus);
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setValue("");
    setError(null);
  }, [connecting]);
  if (!connecting || focus?.kind !== "node") return null;
  const cancel = () => {
    useFocus.setState({ connecting: false });
    document.querySelector<HTMLElement>('[data-testid="canvas"]')?.focus();
  };
  return (
    <div className="connect-prompt" role="dialog" aria-label={`Connect ${focus.id} to`} data-testid="connect-prompt">
      <label>
        Connect <strong>{focus.id}</strong> to{" "}
        <input
          autoFocus
          list="connect-targets"
          data-testid="connect-input"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          onKeyDown={(e) => {
            e.stopPropagation();
            if (e.key === "Escape") return cancel();
            if (e.key === "Enter") {
              e.preventDefault();
              void connectTo(value).then(setError);
            }
          }}
        />
      </label>
      <datalist id="connect-targets">
        {view.spec.nodes
          .filter((n) => n.id !== focus.id)
          .slice(0, 500)
          .map((n) => (
            <option key={n.id} value={n.id} />
          ))}
        <option value={END} />
      </datalist>
      {error && (
        <div className="connect-error" role="alert" data-testid="connect-error">
          {error}
        </div>
      )}
      <div className="muted small">Enter connects, Esc cancels.</div>
    </div>
  );
}
