import { createReadStream, existsSync } from "node:fs";
import { join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";
import { freezeSafe } from "./vite-freeze-safe.ts";

/** The dev server's `recorded/`: the views of generated documents the Rust bench crate wrote
 * (`?doc=big:N` in the preview; `ui/scripts/serve.mjs` serves the same for the built files). */
function recordedViews(): Plugin {
  const dir = join(process.env.CARGO_TARGET_DIR ?? fileURLToPath(new URL("../target", import.meta.url)), "recorded-views");
  return {
    name: "trellis-recorded-views",
    configureServer(server) {
      server.middlewares.use("/recorded", (req, res, next) => {
        const path = normalize(join(dir, decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname)));
        if (!path.startsWith(dir) || !existsSync(path)) return next();
        res.setHeader("content-type", "application/json");
        createReadStream(path).pipe(res);
      });
    },
  };
}

// Relative base: the built files load from Tauri's custom protocol and from any static server.
export default defineConfig({
  base: "./",
  plugins: [freezeSafe(), react(), recordedViews()],
  clearScreen: false,
  // Port 5173: tauri.conf.json `devUrl`.
  server: { port: 5173, strictPort: true },
  build: {
    target: "safari16",
    outDir: "dist",
    chunkSizeWarningLimit: 2500,
    sourcemap: false,
    // baseline.html: plain React Flow, the reference the canvas benchmarks compare against.
    rollupOptions: {
      input: {
        main: fileURLToPath(new URL("index.html", import.meta.url)),
        baseline: fileURLToPath(new URL("baseline.html", import.meta.url)),
      },
    },
  },
  worker: { format: "es" },
  // A render of the whole app takes 1-2 s on an idle 2-core machine and several times that while
  // the machine builds: 5 s (Vitest's default) failed tests that were only waiting for the CPU.
  // CodeMirror's packages share state by identity (a language's syntax tree is a field of the
  // editor state): all of them go through Vite, one copy of each (a package reached from a
  // source file and from a test were otherwise two, and neither saw the other's tree).
  test: {
    environment: "happy-dom",
    include: ["src/**/*.test.ts", "src/**/*.test.tsx"],
    testTimeout: 30_000,
    server: { deps: { inline: [/@codemirror\//, /@lezer\//] } },
  },
});
