// A large file being opened: "Opening big.json…" while Rust reads it, then "Laying out
// big.json: 100,000 nodes, 42%" while it places a document that has no layout of its own, with
// a Stop button (the automatic layout's cancel: nothing opens). Rust sends `open-progress` for
// every open (dialog, recent list, drop); the notice shows only when an open lasts, so small
// files open without a flash.
import { useEffect, useState } from "react";
import type { OpenProgress as Progress } from "../bindings/OpenProgress";

/** An open shorter than this shows nothing. */
const SHOW_AFTER_MS = 300;

export function openProgressText(p: Progress): string {
  if (p.stage === "layingOut") {
    return `Laying out ${p.fileName}: ${p.nodes.toLocaleString("en-US")} nodes, ${Math.round(p.fraction * 100)}%`;
  }
  return `Opening ${p.fileName}…`;
}

function useOpenProgress(enabled: boolean): Progress | null {
  const [current, setCurrent] = useState<Progress | null>(null);
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!enabled) return;
    let off: (() => void) | null = null;
    let alive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    void (async () => {
      const { listen } = await import("@tauri-apps/api/event");
      const stop = await listen<Progress>("open-progress", (e) => {
        const p = e.payload;
        if (p.done) {
          clearTimeout(timer);
          timer = undefined;
          setShown(false);
          setCurrent(null);
          return;
        }
        if (p.stage === "reading") {
          clearTimeout(timer);
          timer = setTimeout(() => setShown(true), SHOW_AFTER_MS);
        }
        setCurrent(p);
      });
      if (!alive) return stop();
      off = stop;
    })();
    return () => {
      alive = false;
      clearTimeout(timer);
      off?.();
    };
  }, [enabled]);
  return shown ? current : null;
}

export function OpenProgress({ tauri, onStop }: { tauri: boolean; onStop: () => void }) {
  const progress = useOpenProgress(tauri);
  if (!progress) return null;
  return (
    <div className="open-progress" role="status" data-testid="open-progress" data-stage={progress.stage}>
      <span>{openProgressText(progress)}</span>
      {progress.stage === "layingOut" && <progress max={1} value={progress.fraction} aria-label="Layout progress" />}
      <button type="button" onClick={onStop} data-testid="open-progress-stop" title="Stop opening this file (nothing opens)">
        Stop
      </button>
    </div>
  );
}
