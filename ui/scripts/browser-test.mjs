// A browser test of the built UI in Chromium, on the preview's replay of answers Rust recorded
// (src/preview/backend.ts; crates/doc `tests/preview_fixtures.rs` records each scenario): the
// flows that need a real browser (HTML5 drag from the registry, wiring by handles, the system
// clipboard, keyboard shortcuts, the problems panel, the zoomed-out canvas), under the app's CSP
// and a frozen `Object.prototype`. Every edit the UI sends must be the next one Rust answered in
// the scenario, and every one must be sent. Exits non-zero on failure.
// `npm run build -w ui && node ui/scripts/browser-test.mjs [part of a test's name]`
import assert from "node:assert/strict";
import { chromium } from "playwright-core";
import { recordedViews, serve } from "./serve.mjs";

const { server, url } = await serve();
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
let failed = 0;
/** The page of the test running (its replay's refusals are printed when the test fails). */
let page = null;

async function open(query) {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, permissions: ["clipboard-read", "clipboard-write"] });
  await ctx.addInitScript(() => Object.freeze(Object.prototype));
  const p = await ctx.newPage();
  page = p;
  const errors = [];
  p.on("pageerror", (e) => errors.push(e.message));
  p.on("console", (m) => /Content Security Policy|Refused to/.test(m.text()) && errors.push(m.text()));
  await p.goto(`${url}index.html?${query}`);
  await p.waitForSelector('[data-testid="app"][data-ready="true"]');
  return { p, errors, ctx };
}

/** The view the page holds now (Rust's views with Rust's answers applied). */
const held = (p) => p.evaluate(() => window.__trellisPerf.activeView());
/** Waits until the page holds a view for which `test` is true. */
const until = (p, test, arg) => p.waitForFunction(test, arg);
/** The UI sent exactly the recorded edits, in order, and nothing else. */
async function replayed(p) {
  const r = await p.evaluate(() => ({ unexpected: window.__trellisPreview.unexpected, remaining: window.__trellisPreview.remaining }));
  assert.deepEqual(r.unexpected, [], "edits Rust did not answer");
  assert.equal(r.remaining, 0, "recorded edits the UI did not send");
}

const only = process.argv[2];

async function test(name, fn) {
  if (only && !name.includes(only)) return;
  const t = Date.now();
  try {
    await fn();
    console.log(`ok   ${name} (${Date.now() - t} ms)`);
  } catch (e) {
    failed++;
    const refused = await page?.evaluate(() => window.__trellisPreview?.unexpected).catch(() => null);
    if (process.env.SHOTS)
      await page?.screenshot({ path: `${process.env.SHOTS}/${name.slice(0, 20).replace(/\W+/g, "-")}.png` }).catch(() => {});
    console.log(`FAIL ${name}\n${e.stack ?? e}${refused?.length ? `\nnot in Rust's script: ${refused.join("\n")}` : ""}`);
  }
}

await test("the support-agent document names the undeclared channel, as Rust found it", async () => {
  const { p, errors } = await open("doc=support");
  const rows = p.locator('[data-testid="problem"]');
  await rows.first().waitFor();
  assert.equal(await rows.first().getAttribute("data-code"), "spec/undeclared-channel");
  assert.match(await rows.first().textContent(), /"intent"/);
  assert.equal(await p.getAttribute('[data-testid="problem-count"]', "data-errors"), "1");
  await rows.first().click();
  assert.equal(await p.getAttribute('[data-testid="inspector"]', "data-kind"), "edge");
  assert.deepEqual(errors, []);
});

await test("build the support graph from an empty document: drag, wire, form, condition, channels", async () => {
  const { p, errors } = await open("scenario=build-support");
  const canvas = p.locator('[data-testid="canvas"]');
  const box = await canvas.boundingBox();
  // HTML5 drag from the registry onto the canvas.
  await p.dragAndDrop('[data-testid="registry-item"][data-type="llm"]', '[data-testid="canvas"]', { targetPosition: { x: 250, y: 250 } });
  await p.locator(".react-flow__node[data-id=llm]").waitFor();
  // Search + Enter adds at the centre.
  await p.keyboard.press("Escape");
  await p.keyboard.press("/");
  await p.keyboard.type("http");
  await p.keyboard.press("Enter");
  await p.locator(".react-flow__node[data-id=http]").waitFor();
  let v = await held(p);
  assert.deepEqual(
    v.spec.nodes.map((n) => [n.id, n.type]),
    [
      ["llm", "llm"],
      ["http", "http"],
    ],
  );
  // Fill the http config through the form.
  await p.locator(".react-flow__node[data-id=http]").click();
  const field = p.locator('[data-testid="config-field-url"]');
  await field.fill("https://shop.example.com/checkout");
  await field.press("Control+Enter");
  await until(p, () => window.__trellisPerf.activeView().spec.nodes[1].config.url === "https://shop.example.com/checkout");
  // Rename through the inspector.
  const idInput = p.locator('[data-testid="node-id-input"]');
  await idInput.fill("checkout");
  await idInput.press("Enter");
  await p.locator(".react-flow__node[data-id=checkout]").waitFor();
  // Wire llm -> checkout by dragging handle to handle.
  const from = await p.locator('.react-flow__node[data-id=llm] [data-testid="handle-out-llm"]').boundingBox();
  const to = await p.locator('.react-flow__node[data-id=checkout] [data-testid="handle-in-checkout"]').boundingBox();
  await p.mouse.move(from.x + 5, from.y + 5);
  await p.mouse.down();
  await p.mouse.move(to.x + 5, to.y + 5, { steps: 12 });
  await p.mouse.up();
  await until(p, () => window.__trellisPerf.activeView().spec.edges.length === 1);
  // Declare the channel in the graph inspector (click the empty pane).
  await p.mouse.click(box.x + 30, box.y + 60);
  await p.fill('[data-testid="channel-new-name"]', "intent");
  await p.click('[data-testid="channel-add"]');
  await p.locator('[data-testid="channel-row"][data-channel="intent"]').waitFor();
  // The condition, with the builder.
  await p.locator(".react-flow__edge").first().click({ force: true });
  await p.locator('[data-testid="condition-builder"]').waitFor();
  await p.selectOption('[data-testid="condition-channel"]', "intent");
  await p.selectOption('[data-testid="condition-operator"]', "eq");
  await p.fill('[data-testid="condition-value"]', "buy");
  await p.press('[data-testid="condition-value"]', "Enter");
  await p.locator('[data-testid="edge-label-0"]').waitFor();
  v = await held(p);
  assert.equal(await p.locator('[data-testid="edge-label-0"]').textContent(), v.edgeLabels[0].text, "the label is Rust's");
  assert.deepEqual(v.spec.edges, [{ from: "llm", to: "checkout", when: { channel: "intent", eq: "buy" } }]);
  await replayed(p);
  assert.deepEqual(errors, []);
});

await test("a refused connection shows Rust's reason", async () => {
  const { p } = await open("scenario=refused-connection");
  await p.evaluate(() => window.__trellisPerf.setViewport({ x: 100, y: 100, zoom: 1 }));
  const from = await p.locator('[data-testid="handle-out-classify"]').boundingBox();
  const to = await p.locator('[data-testid="handle-in-__start__"]').boundingBox();
  await p.mouse.move(from.x + 5, from.y + 5);
  await p.mouse.down();
  await p.mouse.move(to.x + 5, to.y + 5, { steps: 12 });
  await p.mouse.up();
  await p.locator('[data-testid="toast"][data-level="error"]').waitFor();
  assert.match(await p.locator('[data-testid="toast"][data-level="error"]').textContent(), /__start__/);
  await replayed(p);
});

await test("copy three nodes, paste into another document (system clipboard), undo, redo, paste again", async () => {
  const { p } = await open("scenario=copy-paste");
  await p.evaluate(() => window.__trellisPerf.setViewport({ x: 0, y: 0, zoom: 0.6 }));
  for (const [i, id] of ["classify", "lookup_order", "answer"].entries())
    await p.locator(`.react-flow__node[data-id=${id}]`).click({ modifiers: i ? ["Control"] : [] });
  await p.keyboard.press("Control+c");
  await p.waitForTimeout(200);
  const text = await p.evaluate(() => navigator.clipboard.readText());
  assert.equal(JSON.parse(text).nodes.length, 3);
  await p.locator('[data-testid="tab"]').nth(1).click();
  await p.waitForSelector('[data-testid="app"][data-ready="true"][data-active-doc="2"]');
  await p.locator('[data-testid="canvas"]').click({ position: { x: 40, y: 40 } });
  const nodes = (n) => until(p, (n) => window.__trellisPerf.activeView().spec.nodes.length === n, n);
  await p.keyboard.press("Control+v");
  await nodes(5);
  await p.keyboard.press("Control+z");
  await nodes(2);
  await p.keyboard.press("Control+Shift+z");
  await nodes(5);
  // Pasting again: Rust renames the clashing ids.
  await p.keyboard.press("Control+v");
  await until(p, () => window.__trellisPerf.activeView().spec.nodes.some((n) => n.id === "classify_2"));
  await replayed(p);
});

await test("help overlay, select all, duplicate, delete", async () => {
  const { p } = await open("scenario=duplicate-delete");
  await p.keyboard.press("?");
  await p.locator('[data-testid="help-overlay"]').waitFor();
  await p.keyboard.press("Escape");
  await p.locator('[data-testid="canvas"]').click({ position: { x: 40, y: 40 } });
  await p.keyboard.press("Control+a");
  await p.keyboard.press("Control+d");
  await until(p, () => window.__trellisPerf.activeView().spec.nodes.length === 12);
  await p.keyboard.press("Delete");
  await until(p, () => window.__trellisPerf.activeView().spec.nodes.length === 6);
  await replayed(p);
});

await test("drag a node, box select and multi-drag (DOM), then select and drag on the overview canvas", async () => {
  const { p, errors } = await open("scenario=drag");
  await p.evaluate(() => window.__trellisPerf.setViewport({ x: 20, y: 150, zoom: 0.6 }));
  await p.waitForTimeout(200);
  const b = await p.locator(".react-flow__node[data-id=classify]").boundingBox();
  await p.mouse.move(b.x + 60, b.y + 30);
  await p.mouse.down();
  await p.mouse.move(b.x + 160, b.y + 90, { steps: 8 });
  await p.mouse.up();
  await until(p, () => window.__trellisPreview.remaining === 2);
  // Box select two nodes with Shift+drag, then move both.
  const c = await p.locator('[data-testid="canvas"]').boundingBox();
  const l = await p.locator(".react-flow__node[data-id=lookup_order]").boundingBox();
  const a = await p.locator(".react-flow__node[data-id=open_ticket]").boundingBox();
  await p.keyboard.down("Shift");
  await p.mouse.move(Math.min(l.x, a.x) - 20, Math.min(l.y, a.y) - 20);
  await p.mouse.down();
  await p.mouse.move(Math.max(l.x + l.width, a.x + a.width) + 20, Math.max(l.y + l.height, a.y + a.height) + 20, { steps: 8 });
  await p.mouse.up();
  await p.keyboard.up("Shift");
  await until(p, () => document.querySelector('[data-testid="inspector"]').dataset.kind === "selection");
  await p.mouse.move(l.x + 60, l.y + 30);
  await p.mouse.down();
  await p.mouse.move(l.x + 60, l.y + 130, { steps: 8 });
  await p.mouse.up();
  await until(p, () => window.__trellisPreview.remaining === 1);
  // Zoomed out: the overview canvas handles click-select and drag itself.
  await p.evaluate(() => window.__trellisPerf.setViewport({ x: 200, y: 300, zoom: 0.3 }));
  await until(p, () => window.__trellisPerf.renderMode() === "canvas");
  const k = (await held(p)).layout.positions.reply;
  const sx = c.x + 200 + (k.x + 100) * 0.3;
  const sy = c.y + 300 + (k.y + 30) * 0.3;
  await p.mouse.click(sx, sy);
  await until(p, () => document.querySelector('[data-testid="node-id-input"]')?.value === "reply");
  await p.mouse.move(sx, sy);
  await p.mouse.down();
  await p.mouse.move(sx + 30, sy, { steps: 6 });
  await p.mouse.up();
  await until(p, () => window.__trellisPreview.remaining === 0);
  await replayed(p);
  assert.deepEqual(errors, []);
});

await test("5,000 nodes (Rust's view of the generated document): DOM near the entry, one canvas zoomed out", async () => {
  recordedViews([5000]);
  const { p } = await open("doc=big:5000");
  // Opened readable, at the entry: only the nodes near the view are in the DOM.
  assert.equal(await p.evaluate(() => window.__trellisPerf.renderMode()), "dom");
  await p.locator(".react-flow__node").first().waitFor();
  const n = await p.locator(".react-flow__node").count();
  assert.ok(n > 5 && n < 300, `DOM nodes near the view only, got ${n}`);
  await p.evaluate(() => window.__trellisPerf.setViewport({ x: 0, y: 0, zoom: 0.05 }));
  await until(p, () => window.__trellisPerf.renderMode() === "canvas");
  await until(p, () => document.querySelectorAll(".react-flow__node").length === 0);
  assert.ok((await p.evaluate(() => window.__trellisPerf.drawnNodes())) > 1000, "the canvas draws the graph");
});

await test("anything Rust did not answer is refused, and the page says so", async () => {
  const { p } = await open("doc=example");
  await p.keyboard.press("Control+s");
  await p.locator('[data-testid="toast"][data-level="error"]').waitFor();
  assert.match(await p.locator('[data-testid="toast"][data-level="error"]').textContent(), /not recorded: save/);
});

await browser.close();
server.close();
if (failed) {
  console.log(`${failed} failed`);
  process.exit(1);
}
console.log("all browser tests passed");
