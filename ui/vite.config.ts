import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";
import { freezeSafe } from "./vite-freeze-safe.ts";

// Relative base: the built files load from Tauri's custom protocol and from any static server.
export default defineConfig({
  base: "./",
  plugins: [freezeSafe(), react()],
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
