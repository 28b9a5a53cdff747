// Smoke test in WebKitGTK (the Linux app's engine): the built UI with the fake backend opens,
// lays out a document without layout in the elk worker, draws its nodes, and a type added from
// the registry appears. `node scripts/webkit-smoke.mjs`
import assert from "node:assert/strict";
import { serve } from "./serve.mjs";
import { webkit } from "./webkit.mjs";

const { server, url } = await serve();
const wk = await webkit();
try {
  await wk.window({ width: 1440, height: 900 });
  await wk.go(`${url}index.html?doc=support`);
  const ready = await wk.run(`const done = arguments[arguments.length - 1]; const t0 = Date.now();
    const t = setInterval(() => { const ok = document.querySelector('[data-testid="app"][data-ready="true"]');
      if (ok || Date.now() - t0 > 20000) { clearInterval(t); done(!!ok); } }, 50);`);
  assert.equal(ready, true, "data-ready");
  const r = await wk.exec(`const f = window.__trellisFake; const v = f.view(f.docs.get("doc-1"));
    return { nodes: document.querySelectorAll(".react-flow__node").length, placed: Object.keys(v.layout.positions).length,
      problems: [...document.querySelectorAll('[data-testid="problem"]')].map((e) => e.dataset.code) };`);
  assert.equal(r.nodes, 4, "agent, checkout, __start__, __end__ drawn");
  assert.ok(r.placed >= 2, "laid out by the elk worker");
  assert.deepEqual(r.problems, ["spec/undeclared-channel"]);
  await wk.exec(`document.querySelector('[data-testid="registry-add-llm"]').click();`);
  const added = await wk.run(`const done = arguments[arguments.length - 1]; const t0 = Date.now();
    const t = setInterval(() => { const ok = document.querySelector('.react-flow__node[data-id="llm"]'); if (ok || Date.now() - t0 > 10000) { clearInterval(t); done(!!ok); } }, 50);`);
  assert.equal(added, true, "llm node added");
  // The system clipboard through WebKit's copy/paste events: select all, copy, paste.
  const CTRL = "\uE009";
  const chord = (k) => [
    { type: "keyDown", value: CTRL },
    { type: "keyDown", value: k },
    { type: "keyUp", value: k },
    { type: "keyUp", value: CTRL },
  ];
  await wk.exec(`document.activeElement && document.activeElement.blur();`);
  await wk.actions([{ type: "key", id: "kb", actions: [...chord("a"), ...chord("c"), { type: "pause", duration: 200 }, ...chord("v")] }]);
  const pasted = await wk.run(`const done = arguments[arguments.length - 1]; const t0 = Date.now();
    const t = setInterval(() => { const v = window.__trellisFake.view(window.__trellisFake.docs.get("doc-1"));
      if (v.spec.nodes.length >= 6 || Date.now() - t0 > 5000) { clearInterval(t); done(v.spec.nodes.map((n) => n.id)); } }, 50);`);
  console.log("after copy + paste:", pasted.join(", "));
  assert.ok(pasted.includes("agent_2") && pasted.includes("llm_2"), "pasted with fresh ids");
  console.log("webkit smoke passed", JSON.stringify(r));
} finally {
  await wk.close();
  server.close();
}
