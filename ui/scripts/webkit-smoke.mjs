// Smoke test in WebKitGTK (the Linux app's engine) of the built UI on the preview's replay of
// answers Rust recorded (scenario `smoke`): the corpus support agent opens with Rust's finding,
// a type added from the registry appears, and a copy and paste through the system clipboard
// gives the ids Rust chose. `node scripts/webkit-smoke.mjs`
import assert from "node:assert/strict";
import { serve } from "./serve.mjs";
import { webkit } from "./webkit.mjs";

const { server, url } = await serve();
const wk = await webkit();
try {
  await wk.window({ width: 1440, height: 900 });
  await wk.go(`${url}index.html?scenario=smoke`);
  const ready = await wk.run(`const done = arguments[arguments.length - 1]; const t0 = Date.now();
    const t = setInterval(() => { const ok = document.querySelector('[data-testid="app"][data-ready="true"]');
      if (ok || Date.now() - t0 > 20000) { clearInterval(t); done(!!ok); } }, 50);`);
  assert.equal(ready, true, "data-ready");
  const r = await wk.exec(`return { nodes: document.querySelectorAll(".react-flow__node").length,
      problems: [...document.querySelectorAll('[data-testid="problem"]')].map((e) => e.dataset.code) };`);
  assert.equal(r.nodes, 4, "agent, checkout, __start__, __end__ drawn");
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
    const t = setInterval(() => { const v = window.__trellisPerf.activeView();
      if (v.spec.nodes.length >= 6 || Date.now() - t0 > 5000) { clearInterval(t); done(v.spec.nodes.map((n) => n.id)); } }, 50);`);
  console.log("after copy + paste:", pasted.join(", "));
  assert.ok(pasted.includes("agent_2") && pasted.includes("llm_2"), "pasted with the fresh ids Rust chose");
  const replay = await wk.exec("return { unexpected: window.__trellisPreview.unexpected, remaining: window.__trellisPreview.remaining };");
  assert.deepEqual(replay, { unexpected: [], remaining: 0 }, "the UI sent exactly what Rust answered");
  console.log("webkit smoke passed", JSON.stringify(r));
} finally {
  await wk.close();
  server.close();
}
