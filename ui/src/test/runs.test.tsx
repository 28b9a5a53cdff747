// The run timeline and inspector on what Rust sends (fixtures/run-view.json, written by
// src-tauri/src/runs_view.rs from trellis-runs' run log fixture): steps listed by superstep,
// the breakpoint and path helpers reading Rust's step table, the inspector showing a step's
// write and the channels after it. (The real app is driven end to end by src-tauri/tests/e2e/runs.rs.)
import { act } from "react";
import { createRoot } from "react-dom/client";
import { afterEach, describe, expect, it } from "vitest";
import type { RunView, StepDetail } from "../bindings";
import { RunInspector } from "../runs/RunInspector";
import { RunTimeline } from "../runs/RunTimeline";
import { nextBreak, nodeOfStep, useRuns } from "../runs/runState";
import text from "./fixtures/run-view.json?raw";

(globalThis as unknown as { IS_REACT_ACT_ENVIRONMENT: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const fixture = JSON.parse(text) as { view: RunView; details: StepDetail[] };
const { view, details } = fixture;

let root: ReturnType<typeof createRoot> | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = "";
  useRuns.setState({ docId: null, view: null, detail: null, current: 0, breakpoints: [] });
});

async function show(node: React.ReactNode) {
  const el = document.createElement("div");
  document.body.appendChild(el);
  root = createRoot(el);
  await act(async () => root?.render(node));
  return el;
}

describe("a run on Rust's step table", () => {
  it("names each step's node, a retry under the same node", () => {
    const names = view.steps.label.map((_, i) => nodeOfStep(view, i));
    expect(names).toEqual(["__start__", "agent", "agent", "checkout"]);
    expect(view.steps.statuses).toBe("oroo");
  });

  it("continues to the next step whose node has a breakpoint, else to the end", () => {
    expect(nextBreak(view, 0, ["checkout"])).toBe(3);
    expect(nextBreak(view, 0, ["agent"])).toBe(1);
    expect(nextBreak(view, 1, ["agent"])).toBe(2);
    expect(nextBreak(view, 3, ["agent"])).toBe(3);
  });

  it("lists the steps by superstep with the current one marked", async () => {
    useRuns.setState({ docId: "1", view, current: 2, detail: details[2] });
    const el = await show(<RunTimeline docId="1" />);
    const steps = [...el.querySelectorAll<HTMLElement>("[data-testid=run-step]")];
    expect(steps.map((s) => `${s.dataset.node}:${s.dataset.status}`)).toEqual(["__start__:ok", "agent:retried", "agent:ok", "checkout:ok"]);
    expect(steps.filter((s) => s.dataset.current === "true").map((s) => s.dataset.index)).toEqual(["2"]);
    const heads = [...el.querySelectorAll(".run-superstep")].map((h) => h.textContent);
    expect(heads).toEqual(["input", "superstep 0", "superstep 1"]);
    expect(el.querySelector("[data-testid=run-position]")?.textContent).toBe("step 3 of 4");
    expect(el.querySelector("[data-testid=run-match]")?.getAttribute("data-verdict")).toBe("other-version");
  });

  it("shows a step's write, its tokens and the channels after it", async () => {
    useRuns.setState({ docId: "1", view, current: 2, detail: details[2] });
    const el = await show(<RunInspector docId="1" />);
    expect(el.querySelector("[data-testid=run-step-name]")?.textContent).toBe("agent");
    const wrote = [...el.querySelectorAll<HTMLElement>("[data-testid=run-change]")].map((r) => r.dataset.channel);
    expect(wrote).toEqual(["intent", "messages"]);
    expect(el.querySelector("[data-testid=run-tokens]")?.textContent).toContain("812 in");
    const after = [...el.querySelectorAll<HTMLElement>("[data-testid=run-channel]")];
    expect(after.map((r) => `${r.dataset.channel}:${r.dataset.changed}`)).toEqual(["messages:true", "intent:true"]);
    expect(el.querySelector("[data-testid=run-state]")?.getAttribute("data-recorded")).toBe("true");
    expect(el.querySelector("[data-testid=run-events]")?.textContent).toContain("tool_trace");
  });

  it("shows why a retried step failed", async () => {
    useRuns.setState({ docId: "1", view, current: 1, detail: details[1] });
    const el = await show(<RunInspector docId="1" />);
    expect(el.querySelector("[data-testid=run-error]")?.textContent).toBe("RateLimitError: 429 from the model");
    expect(el.querySelector("[data-testid=run-step-status]")?.textContent).toBe("retried");
  });
});
