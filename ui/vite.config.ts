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
    rollupOptions: { input: { main: fileURLToPath(new URL("index.html", import.meta.url)), baseline: fileURLToPath(new URL("baseline.html", import.meta.url)) } },
  },
  worker: { format: "es" },
  test: { environment: "happy-dom", include: ["src/**/*.test.ts", "src/**/*.test.tsx"] },
});
