// A browser test of the built UI with the fake backend in Chromium: the flows of issue 5 that
// need a real browser (HTML5 drag from the registry, wiring by handles, the system clipboard,
// keyboard shortcuts, the problems panel, the zoomed-out canvas). Exits non-zero on failure.
// `npm run build -w ui && node ui/scripts/browser-test.mjs`
import assert from "node:assert/strict";
import { chromium } from "playwright-core";
import { serve } from "./serve.mjs";

const { server, url } = await serve();
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
let failed = 0;

async function open(doc) {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, permissions: ["clipboard-read", "clipboard-write"] });
  await ctx.addInitScript(() => Object.freeze(Object.prototype));
  const p = await ctx.newPage();
  const errors = [];
  p.on("pageerror", (e) => errors.push(e.message));
  p.on("console", (m) => /Content Security Policy|Refused to/.test(m.text()) && errors.push(m.text()));
  await p.goto(`${url}index.html?doc=${doc}`);
  await p.waitForSelector('[data-testid="app"][data-ready="true"]');
  return { p, errors, ctx };
}
const doc = (p) =>
  p.evaluate(() =>
    window.__trellisFake.view(window.__trellisFake.docs.get(document.querySelector('[data-testid="app"]').dataset.activeDoc)),
  );

async function test(name, fn) {
  const t = Date.now();
  try {
    await fn();
    console.log(`ok   ${name} (${Date.now() - t} ms)`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}\n${e.stack ?? e}`);
  }
}

await test("the support-agent document names the undeclared channel; save is refused", async () => {
  const { p, errors } = await open("support");
  const rows = p.locator('[data-testid="problem"]');
  await rows.first().waitFor();
  assert.equal(await rows.first().getAttribute("data-code"), "spec/undeclared-channel");
  assert.match(await rows.first().textContent(), /"intent"/);
  assert.equal(await p.getAttribute('[data-testid="problem-count"]', "data-errors"), "1");
  await rows.first().click();
  assert.equal(await p.getAttribute('[data-testid="inspector"]', "data-kind"), "edge");
  await p.keyboard.press("Control+s");
  await p.locator('[data-testid="problem"][data-code="save/refused"]').waitFor();
  assert.deepEqual(errors, []);
});

await test("build the support graph from an empty document: drag, wire, form, condition, channels", async () => {
  const { p, errors } = await open("empty");
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
  let v = await doc(p);
  assert.deepEqual(
    v.spec.nodes.map((n) => [n.id, n.type]),
    [
      ["llm", "llm"],
      ["http", "http"],
    ],
  );
  assert.equal(v.spec.nodes[0].config.model, "claude-opus-4-8", "defaults applied");
  // Fill the http config through the form.
  await p.locator(".react-flow__node[data-id=http]").click();
  const url = p.locator('[data-testid="config-field"][data-path="/url"] input');
  await url.fill("https://shop.example.com/checkout");
  await url.press("Enter");
  await p.waitForFunction(
    () =>
      window.__trellisFake.view(window.__trellisFake.docs.get("doc-1")).spec.nodes[1].config.url === "https://shop.example.com/checkout",
  );
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
  await p.waitForFunction(() => window.__trellisFake.view(window.__trellisFake.docs.get("doc-1")).spec.edges.length === 1);
  // Declare the channel in the graph inspector (click the empty pane).
  await p.mouse.click(box.x + 30, box.y + box.height - 120);
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
  assert.equal(await p.locator('[data-testid="edge-label-0"]').textContent(), 'intent == "buy"');
  v = await doc(p);
  assert.deepEqual(v.spec.edges, [{ from: "llm", to: "checkout", when: { channel: "intent", eq: "buy" } }]);
  assert.deepEqual(errors, []);
});

await test("refused connection shows its reason", async () => {
  const { p } = await open("example");
  await p.evaluate(() => window.__trellisPerf.setViewport({ x: 100, y: 100, zoom: 1 }));
  const from = await p.locator('[data-testid="handle-out-classify"]').boundingBox();
  const to = await p.locator('[data-testid="handle-in-__start__"]').boundingBox();
  await p.mouse.move(from.x + 5, from.y + 5);
  await p.mouse.down();
  await p.mouse.move(to.x + 5, to.y + 5, { steps: 12 });
  await p.mouse.up();
  await p.locator('[data-testid="toast"][data-level="error"]').waitFor();
  assert.match(await p.locator('[data-testid="toast"][data-level="error"]').textContent(), /__start__/);
});

await test("copy three nodes, paste into another document (system clipboard), undo, redo", async () => {
  const { p } = await open("example,support");
  await p.evaluate(() => window.__trellisPerf.setViewport({ x: 0, y: 0, zoom: 0.6 }));
  for (const [i, id] of ["classify", "lookup", "answer"].entries())
    await p.locator(`.react-flow__node[data-id=${id}]`).click({ modifiers: i ? ["Control"] : [] });
  await p.keyboard.press("Control+c");
  await p.waitForTimeout(200);
  const text = await p.evaluate(() => navigator.clipboard.readText());
  assert.equal(JSON.parse(text).nodes.length, 3);
  await p.locator('[data-testid="tab"]').nth(1).click();
  await p.waitForSelector('[data-testid="app"][data-ready="true"][data-active-doc="doc-2"]');
  await p.locator('[data-testid="canvas"]').click({ position: { x: 40, y: 40 } });
  await p.keyboard.press("Control+v");
  await p.waitForFunction(() => window.__trellisFake.view(window.__trellisFake.docs.get("doc-2")).spec.nodes.length === 5);
  await p.keyboard.press("Control+z");
  await p.waitForFunction(() => window.__trellisFake.view(window.__trellisFake.docs.get("doc-2")).spec.nodes.length === 2);
  await p.keyboard.press("Control+Shift+z");
  await p.waitForFunction(() => window.__trellisFake.view(window.__trellisFake.docs.get("doc-2")).spec.nodes.length === 5);
  // Pasting again renames clashing ids.
  await p.keyboard.press("Control+v");
  await p.waitForFunction(() =>
    window.__trellisFake.view(window.__trellisFake.docs.get("doc-2")).spec.nodes.some((n) => n.id === "classify_2"),
  );
});

await test("help overlay, select all, delete, duplicate", async () => {
  const { p } = await open("example");
  await p.keyboard.press("?");
  await p.locator('[data-testid="help-overlay"]').waitFor();
  await p.keyboard.press("Escape");
  await p.locator('[data-testid="canvas"]').click({ position: { x: 40, y: 40 } });
  await p.keyboard.press("Control+a");
  await p.keyboard.press("Control+d");
  await p.waitForFunction(() => window.__trellisFake.view(window.__trellisFake.docs.get("doc-1")).spec.nodes.length === 10);
  await p.keyboard.press("Delete");
  await p.waitForFunction(() => window.__trellisFake.view(window.__trellisFake.docs.get("doc-1")).spec.nodes.length === 5);
});

await test("drag a node, box select and multi-drag (DOM), then select and drag on the overview canvas", async () => {
  const { p, errors } = await open("example");
  await p.evaluate(() => window.__trellisPerf.setViewport({ x: 20, y: 150, zoom: 0.6 }));
  await p.waitForTimeout(200);
  const pos = (id) => p.evaluate((id) => window.__trellisFake.view(window.__trellisFake.docs.get("doc-1")).layout.positions[id], id);
  const before = await pos("classify");
  const b = await p.locator(".react-flow__node[data-id=classify]").boundingBox();
  await p.mouse.move(b.x + 60, b.y + 30);
  await p.mouse.down();
  await p.mouse.move(b.x + 160, b.y + 90, { steps: 8 });
  await p.mouse.up();
  // (React Flow starts the drag after the first move step, so the distance is a little short.)
  await p.waitForFunction(
    (x) => window.__trellisFake.view(window.__trellisFake.docs.get("doc-1")).layout.positions.classify.x > x,
    before.x + 70,
  );
  const after = await pos("classify");
  assert.ok(after.y > before.y + 40, "moved down too");
  // Box select two nodes with Shift+drag, then move both.
  const c = await p.locator('[data-testid="canvas"]').boundingBox();
  const l = await p.locator(".react-flow__node[data-id=lookup]").boundingBox();
  const a = await p.locator(".react-flow__node[data-id=answer]").boundingBox();
  await p.keyboard.down("Shift");
  await p.mouse.move(Math.min(l.x, a.x) - 20, Math.min(l.y, a.y) - 20);
  await p.mouse.down();
  await p.mouse.move(Math.max(l.x + l.width, a.x + a.width) + 20, Math.max(l.y + l.height, a.y + a.height) + 20, { steps: 8 });
  await p.mouse.up();
  await p.keyboard.up("Shift");
  await p.waitForFunction(() => document.querySelector('[data-testid="inspector"]').dataset.kind === "selection");
  const l0 = await pos("lookup");
  const a0 = await pos("answer");
  await p.mouse.move(l.x + 60, l.y + 30);
  await p.mouse.down();
  await p.mouse.move(l.x + 60, l.y + 130, { steps: 8 });
  await p.mouse.up();
  await p.waitForFunction(
    (y) => window.__trellisFake.view(window.__trellisFake.docs.get("doc-1")).layout.positions.lookup.y > y,
    l0.y + 70,
  );
  const l1 = await pos("lookup");
  const a1 = await pos("answer");
  assert.deepEqual([a1.x - a0.x, a1.y - a0.y], [l1.x - l0.x, l1.y - l0.y], "both selected nodes moved together");
  // Zoomed out: the overview canvas handles click-select and drag itself.
  await p.evaluate(() => window.__trellisPerf.setViewport({ x: 200, y: 300, zoom: 0.3 }));
  await p.waitForFunction(() => window.__trellisPerf.renderMode() === "canvas");
  const k = await pos("checkout");
  const sx = c.x + 200 + (k.x + 100) * 0.3;
  const sy = c.y + 300 + (k.y + 30) * 0.3;
  await p.mouse.click(sx, sy);
  await p.waitForFunction(() => document.querySelector('[data-testid="node-id-input"]')?.value === "checkout");
  await p.mouse.move(sx, sy);
  await p.mouse.down();
  await p.mouse.move(sx + 30, sy, { steps: 6 });
  await p.mouse.up();
  await p.waitForFunction(
    (x) => window.__trellisFake.view(window.__trellisFake.docs.get("doc-1")).layout.positions.checkout.x > x,
    k.x + 70,
  );
  assert.deepEqual(errors, []);
});

await test("automatic layout runs in the worker under the app's CSP, as one undo step", async () => {
  const { p, errors } = await open("big:200");
  await p.click('[data-testid="btn-layout"]');
  await p.waitForFunction(() => window.__trellisFake.view(window.__trellisFake.docs.get("doc-1")).canUndo);
  const overlaps = await p.evaluate(() => {
    const pos = window.__trellisFake.view(window.__trellisFake.docs.get("doc-1")).layout.positions;
    const ids = Object.keys(pos).filter((id) => !id.startsWith("__"));
    let n = 0;
    for (let i = 0; i < ids.length; i++)
      for (let j = i + 1; j < ids.length; j++) {
        const a = pos[ids[i]],
          b = pos[ids[j]];
        if (a.x < b.x + 200 && b.x < a.x + 200 && a.y < b.y + 60 && b.y < a.y + 60) n++;
      }
    return n;
  });
  assert.equal(overlaps, 0);
  await p.keyboard.press("Control+z");
  await p.waitForFunction(() => !window.__trellisFake.view(window.__trellisFake.docs.get("doc-1")).canUndo);
  assert.deepEqual(errors, []);
});

await test("5,000 nodes: opens, draws on one canvas when zoomed out, DOM when zoomed in", async () => {
  const { p } = await open("big:5000");
  assert.equal(await p.evaluate(() => window.__trellisPerf.renderMode()), "canvas");
  assert.equal(await p.locator(".react-flow__node").count(), 0);
  await p.evaluate(() => window.__trellisPerf.setViewport({ x: -1000, y: -500, zoom: 1 }));
  await p.waitForFunction(() => window.__trellisPerf.renderMode() === "dom");
  await p.locator(".react-flow__node").first().waitFor();
  const n = await p.locator(".react-flow__node").count();
  assert.ok(n > 5 && n < 300, `DOM nodes near the view only, got ${n}`);
});

await browser.close();
server.close();
if (failed) {
  console.log(`${failed} failed`);
  process.exit(1);
}
console.log("all browser tests passed");
