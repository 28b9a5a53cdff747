// Files that could not be opened (command line, recent files, the Open dialog): a notice above
// the canvas with the file name, the reason in the editor's words and the line:column. Rust
// keeps the ones from before the window existed (`open_failures`) and sends later ones as
// `open-failed` events; both arrive here. Dismissed one by one.
import { useEffect } from "react";
import { create } from "zustand";
import type { OpenFailure } from "../bindings/OpenFailure";

type Shown = OpenFailure & { key: number };
const useFailures = create<{ list: Shown[] }>(() => ({ list: [] }));
let next = 0;

export function addOpenFailure(f: OpenFailure) {
  useFailures.setState((s) => ({ list: [...s.list, { ...f, key: ++next }].slice(-5) }));
}

export function dismissOpenFailure(key: number) {
  useFailures.setState((s) => ({ list: s.list.filter((f) => f.key !== key) }));
}

/** `broken.json:2:13` or `package.json` when the reason has no place. */
export function failurePlace(f: Pick<OpenFailure, "fileName" | "line" | "column">): string {
  return f.line != null && f.column != null ? `${f.fileName}:${f.line}:${f.column}` : f.fileName;
}

/** In the app: takes what waited from the start and listens for the rest. */
function useTauriFailures(enabled: boolean) {
  useEffect(() => {
    if (!enabled) return;
    let off: (() => void) | null = null;
    let alive = true;
    void (async () => {
      const [{ invoke }, { listen }] = await Promise.all([import("@tauri-apps/api/core"), import("@tauri-apps/api/event")]);
      const stop = await listen<OpenFailure>("open-failed", (e) => addOpenFailure(e.payload));
      if (!alive) return stop();
      off = stop;
      for (const f of await invoke<OpenFailure[]>("open_failures")) addOpenFailure(f);
    })();
    return () => {
      alive = false;
      off?.();
    };
  }, [enabled]);
}

export function OpenFailures({ tauri }: { tauri: boolean }) {
  useTauriFailures(tauri);
  const list = useFailures((s) => s.list);
  if (!list.length) return null;
  return (
    <div className="open-failures">
      {list.map((f) => (
        <div
          key={f.key}
          className="open-failure"
          role="alert"
          data-testid="open-failure"
          data-code={f.code}
          data-file={f.fileName}
          title={f.path}
        >
          <span className="sev error" aria-hidden>
            ✖
          </span>
          <span>
            <strong>Could not open {failurePlace(f)}</strong> — {f.reason}
          </span>
          <button className="link" aria-label={`dismiss the notice about ${f.fileName}`} onClick={() => dismissOpenFailure(f.key)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
