// While files from the desktop are dragged over the window, a hint that dropping opens them.
// The page never sees such a drag (Rust takes it on the window's widget, src-tauri/src/
// file_drop.rs, and sends only whether one is over the window: `file-drag`); the files open
// in tabs when dropped.
import { useEffect } from "react";
import { create } from "zustand";

export const useFileDrag = create<{ over: boolean }>(() => ({ over: false }));

export function FileDropHint({ tauri }: { tauri: boolean }) {
  useEffect(() => {
    if (!tauri) return;
    let off: (() => void) | null = null;
    let alive = true;
    void (async () => {
      const { listen } = await import("@tauri-apps/api/event");
      const stop = await listen<boolean>("file-drag", (e) => useFileDrag.setState({ over: e.payload === true }));
      if (!alive) return stop();
      off = stop;
    })();
    return () => {
      alive = false;
      off?.();
    };
  }, [tauri]);
  const over = useFileDrag((s) => s.over);
  if (!over) return null;
  return (
    <div className="file-drop-hint" data-testid="file-drop-hint" aria-live="polite">
      <div>Drop to open the files in tabs (GraphSpec, Weaveflow, GRAPH.md)</div>
    </div>
  );
}
