// The overview drawing's engine: the <canvas> renderer (overview.ts), its colours read from
// the stylesheet (again when the theme changes), and redraws coalesced to one per frame.
import { useCallback, useEffect, useRef } from "react";
import type { useStoreApi } from "@xyflow/react";
import { traceMark } from "../perf/editTrace";
import { ui } from "../store";
import { OverviewRenderer } from "./overview";
import type { Theme } from "./scenePaint";

/** Durations of the overview draws, read by the benchmarks (`__trellisPerf.drawLog`). */
export const drawLog: number[] = [];

function readTheme(el: HTMLElement): Theme {
  const cs = getComputedStyle(el);
  const v = (n: string, d: string) => cs.getPropertyValue(n).trim() || d;
  return {
    edge: v("--edge", "rgba(100,116,139,0.55)"),
    guarded: v("--edge-guarded", "rgba(217,119,6,0.7)"),
    selected: v("--accent", "#3b82f6"),
    error: v("--error", "#dc2626"),
    warning: v("--warning", "#d97706"),
    terminal: v("--terminal", "#334155"),
    text: v("--fg", "#0f172a"),
    nodeBg: v("--node-bg", "#ffffff"),
  };
}

export function useOverviewRenderer(store: ReturnType<typeof useStoreApi>, theme: string) {
  const wrapper = useRef<HTMLDivElement>(null);
  const overlay = useRef<HTMLCanvasElement>(null);
  const renderer = useRef<OverviewRenderer | null>(null);
  const themeRef = useRef<Theme | null>(null);

  const redraw = useCallback(() => {
    const r = renderer.current;
    if (!r || ui.get().renderMode !== "canvas") return;
    const [tx, ty, z] = store.getState().transform;
    r.draw(tx, ty, z);
    if (drawLog.length < 10000) drawLog.push(r.lastDrawMs);
    traceMark("drawn", r.lastDrawMs);
  }, [store]);
  const rafRef = useRef(0);
  const scheduleDraw = useCallback(() => {
    if (!rafRef.current) rafRef.current = requestAnimationFrame(() => ((rafRef.current = 0), redraw()));
  }, [redraw]);

  useEffect(() => {
    if (!overlay.current || !wrapper.current) return;
    const getTheme = () => (themeRef.current ??= readTheme(wrapper.current as HTMLElement));
    renderer.current = new OverviewRenderer(overlay.current, getTheme, () => scheduleDraw());
    // `?cache=0`: paint the scene every frame (to compare engines in benchmarks).
    if (new URLSearchParams(location.search).get("cache") === "0") renderer.current.useCache = false;
    const mq = window.matchMedia?.("(prefers-color-scheme: dark)");
    const onTheme = () => {
      themeRef.current = null;
      renderer.current?.invalidate();
      scheduleDraw();
    };
    mq?.addEventListener?.("change", onTheme);
    return () => mq?.removeEventListener?.("change", onTheme);
  }, [scheduleDraw]);
  useEffect(() => {
    themeRef.current = null;
    renderer.current?.invalidate();
    scheduleDraw();
  }, [theme, scheduleDraw]);

  return { wrapper, overlay, renderer, scheduleDraw };
}
