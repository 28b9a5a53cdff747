// A tiny static server for ui/dist (no dependency), used by the browser scripts; `recorded/`
// serves the views of generated documents Rust wrote (`recordedViews`).
import { spawnSync } from "node:child_process";
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

const DIST = process.env.UI_DIST ?? fileURLToPath(new URL("../dist/", import.meta.url));
const REPO = fileURLToPath(new URL("../../", import.meta.url));
/** Where the recorded views of generated documents are (`?doc=big:N` reads `recorded/big-N.json`). */
export const RECORDED = join(process.env.CARGO_TARGET_DIR ?? join(REPO, "target"), "recorded-views");
const TYPES = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-src 'none'",
].join("; ");

/** The path under `root` that `pathname` names, or null when it leaves `root`. */
function under(root, pathname) {
  const path = normalize(join(root, decodeURIComponent(pathname)));
  return path.startsWith(root) ? path : null;
}

export function serve(port = 0) {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const recorded = url.pathname.startsWith("/recorded/");
    let path = recorded ? under(RECORDED, url.pathname.slice("/recorded".length)) : under(DIST, url.pathname);
    if (!path) return res.writeHead(403).end();
    if (existsSync(path) && statSync(path).isDirectory()) path = join(path, "index.html");
    if (!existsSync(path)) return res.writeHead(404).end();
    // The app's CSP (src-tauri/tauri.conf.json), so a violation shows up in the browser tests.
    res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream", "content-security-policy": CSP });
    createReadStream(path).pipe(res);
  });
  return new Promise((resolve) =>
    server.listen(port, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/` })),
  );
}

/** Makes sure the views of the generated documents of these sizes are recorded: a missing one is
 * written by the Rust bench crate (`record_view`), as the app would send it. */
export function recordedViews(sizes) {
  for (const n of sizes) {
    const file = join(RECORDED, `big-${n}.json`);
    if (existsSync(file)) continue;
    console.log(`recording the view of ${n} nodes (cargo run -p trellis-bench --example record_view)`);
    const run = spawnSync("cargo", ["run", "-q", "-p", "trellis-bench", "--example", "record_view", "--", String(n), file], {
      cwd: REPO,
      stdio: "inherit",
    });
    if (run.status !== 0) throw new Error(`record_view ${n} failed`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { url } = await serve(Number(process.env.PORT ?? 4173));
  console.log(`serving ui/dist at ${url} (recorded views from ${RECORDED})`);
}
