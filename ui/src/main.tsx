// Entry: the Tauri backend inside the app; in a plain browser, the preview, which replays
// answers Rust recorded (`preview/backend.ts`: `?doc=`, `?scenario=`).
import "@xyflow/react/dist/base.css";
import "./styles.css";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import type { Backend } from "./api/types";
import { errorMessage } from "./api/types";

async function pickBackend(): Promise<Backend> {
  if ("__TAURI_INTERNALS__" in window) {
    const { TauriBackend } = await import("./api/tauri");
    return new TauriBackend();
  }
  const { previewBackend } = await import("./preview/backend");
  return previewBackend(new URLSearchParams(location.search));
}

const root = document.getElementById("root");
pickBackend().then(
  (backend) => {
    if (root) createRoot(root).render(<App backend={backend} />);
  },
  (err: unknown) => {
    if (root) root.textContent = errorMessage(err);
  },
);
