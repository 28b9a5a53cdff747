// Drives WebKitGTK's MiniBrowser through WebKitWebDriver (plain WebDriver over HTTP, no
// client library), under Xvfb when there is no display: the engine the Linux app runs on.
// Used by webkit-bench.mjs. Everything started here is stopped with SIGTERM at the end.
import { spawn } from "node:child_process";
import { createServer } from "node:net";

const MINIBROWSER = process.env.MINIBROWSER ?? "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";

function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function startXvfb() {
  if (process.env.DISPLAY) return { display: process.env.DISPLAY, proc: null };
  const proc = spawn("Xvfb", ["-displayfd", "1", "-screen", "0", "1600x1000x24", "-nolisten", "tcp"], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  const display = await new Promise((resolve, reject) => {
    proc.stdout.once("data", (d) => resolve(`:${String(d).trim()}`));
    proc.once("exit", (c) => reject(new Error(`Xvfb exited ${c}`)));
  });
  return { display, proc };
}

export async function webkit() {
  const x = await startXvfb();
  const port = await freePort();
  const driver = spawn("WebKitWebDriver", [`--port=${port}`], { env: { ...process.env, DISPLAY: x.display }, stdio: "ignore" });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(`${base}/status`);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const call = async (method, path, body) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { "content-type": "application/json" },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await res.json();
    if (json.value?.error) throw new Error(`${json.value.error}: ${json.value.message}`);
    return json.value;
  };
  const s = await call("POST", "/session", {
    capabilities: { alwaysMatch: { "webkitgtk:browserOptions": { binary: MINIBROWSER, args: ["--automation"] } } },
  });
  const sid = s.sessionId;
  const api = {
    go: (url) => call("POST", `/session/${sid}/url`, { url }),
    run: (script, args = []) => call("POST", `/session/${sid}/execute/async`, { script, args }),
    exec: (script, args = []) => call("POST", `/session/${sid}/execute/sync`, { script, args }),
    actions: (actions) => call("POST", `/session/${sid}/actions`, { actions }),
    window: (rect) => call("POST", `/session/${sid}/window/rect`, rect),
    async close() {
      await call("DELETE", `/session/${sid}`).catch(() => {});
      driver.kill("SIGTERM");
      x.proc?.kill("SIGTERM");
    },
  };
  return api;
}
