// Entry: the Tauri backend inside the app, the in-memory fake in a plain browser (dev mode,
// screenshots, browser tests). `?doc=example|support|empty|big:N` picks the fake's document.
import "@xyflow/react/dist/base.css";
import "./styles.css";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import type { Backend } from "./api/types";

async function pickBackend(): Promise<Backend> {
  if ("__TAURI_INTERNALS__" in window) {
    const { TauriBackend } = await import("./api/tauri");
    return new TauriBackend();
  }
  const { FakeBackend } = await import("./api/fake");
  const params = new URLSearchParams(location.search);
  const docs = (params.get("doc") ?? "example").split(",");
  const fake = new FakeBackend(docs);
  fake.latency = Number(params.get("latency") ?? 0);
  (window as unknown as { __trellisFake?: unknown }).__trellisFake = fake;
  return fake;
}

void pickBackend().then((backend) => {
  const root = document.getElementById("root");
  if (root) createRoot(root).render(<App backend={backend} />);
});
