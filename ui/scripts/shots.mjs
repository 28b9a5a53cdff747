// Screenshots of the built UI on the preview's replay of answers Rust recorded
// (src/preview/backend.ts), in Debian's Chromium (playwright-core).
// `npm run build -w ui && npm run shots -w ui` -> ui/shots/*.png
import { mkdirSync } from "node:fs";
import { chromium } from "playwright-core";
import { recordedViews, serve } from "./serve.mjs";

const OUT = new URL("../shots/", import.meta.url).pathname;
mkdirSync(OUT, { recursive: true });
const only = process.argv[2];
if (!only || only === "big") recordedViews([5000]);
const { server, url } = await serve();
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox"] });

async function page(query, scheme = "light") {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: scheme });
  // As in the app (tauri.conf.json freezePrototype): a dependency that writes to a frozen
  // prototype shows up here, not first in the desktop app.
  await ctx.addInitScript(() => Object.freeze(Object.prototype));
  const p = await ctx.newPage();
  p.on("pageerror", (e) => console.error("pageerror:", e.message));
  p.on("console", (m) => m.type() === "error" && console.error("console:", m.text()));
  await p.goto(`${url}?${query}`);
  await p.waitForSelector('[data-testid="canvas"]');
  await p.waitForTimeout(Number(process.env.WAIT ?? 1500));
  return p;
}

const shots = {
  async example() {
    const p = await page("doc=example");
    await p.screenshot({ path: `${OUT}example-light.png` });
  },
  async dark() {
    const p = await page("doc=example", "dark");
    await p.screenshot({ path: `${OUT}example-dark.png` });
  },
  async support() {
    const p = await page("doc=support");
    await p.waitForTimeout(800);
    await p.screenshot({ path: `${OUT}support-problems.png` });
  },
  async node() {
    // Rust's answer to the temperature (its finding shows inline); "lots" is refused by the form.
    const p = await page("scenario=node-inspector");
    await p.evaluate(() => window.__trellisPerf.fitView());
    await p.click('[data-testid="node-answer"]');
    await p.fill('[data-testid="config-field"][data-path="/temperature"] input', "3");
    await p.press('[data-testid="config-field"][data-path="/temperature"] input', "Enter");
    await p.fill('[data-testid="config-field"][data-path="/max_tokens"] input', "lots");
    await p.press('[data-testid="config-field"][data-path="/max_tokens"] input', "Enter");
    await p.waitForTimeout(200);
    await p.screenshot({ path: `${OUT}node-inspector.png` });
  },
  async edge() {
    const p = await page("doc=example");
    await p.evaluate(() => window.__trellisPerf.fitView());
    await p.click('[data-testid="edge-label-2"]');
    await p.waitForTimeout(200);
    await p.screenshot({ path: `${OUT}edge-inspector.png` });
  },
  async help() {
    const p = await page("doc=example");
    await p.keyboard.press("?");
    await p.waitForTimeout(200);
    await p.screenshot({ path: `${OUT}help.png` });
  },
  async big() {
    const p = await page("doc=big:5000");
    await p.waitForTimeout(1500);
    await p.screenshot({ path: `${OUT}big-5000.png` });
  },
};

for (const [name, fn] of Object.entries(shots)) {
  if (only && only !== name) continue;
  const t = Date.now();
  await fn();
  console.log(`${name}: ${Date.now() - t} ms`);
}
await browser.close();
server.close();
