// The UI's delta code against Rust: `fixtures/edit-deltas.json` is written by a Rust test
// (crates/doc `tests/delta.rs`, rerun by `npm test`): per format, the view on open, then each
// step's delta and Rust's full view after it. Applying the deltas in order with the code the
// app runs (`api/delta.ts`, through the store) must give Rust's view at every step.
import { describe, expect, it } from "vitest";
import type { DocumentView, ViewDelta } from "../bindings";
import { applyDelta } from "../api/delta";
import { ui, useUi } from "../store";
// Raw text: the type checker need not infer a type for a large JSON file.
import fixture from "./fixtures/edit-deltas.json?raw";

type Step = { change: unknown; delta: ViewDelta; view: DocumentView };
type Run = { initial: DocumentView; steps: Step[] };
const runs = JSON.parse(fixture) as Record<string, Run>;

describe("edit answers are deltas the UI applies", () => {
  it("covers the three formats with edits, undos and redos", () => {
    expect(Object.keys(runs).sort()).toEqual(["graphmd", "graphspec", "weaveflow"]);
    for (const run of Object.values(runs)) {
      const kinds = new Set(run.steps.map((s) => (typeof s.change === "string" ? s.change : "edit")));
      expect(kinds).toEqual(new Set(["edit", "undo", "redo"]));
    }
  });

  for (const [format, run] of Object.entries(runs)) {
    it(`${format}: each delta gives Rust's full view`, () => {
      let held: DocumentView = { ...run.initial, registry: [] };
      run.steps.forEach((step, n) => {
        const before = held;
        held = applyDelta(held, step.delta);
        expect({ step: n, view: held }).toEqual({ step: n, view: { ...step.view, registry: [] } });
        // Pure: the view held before is not changed.
        expect(before).not.toBe(held);
      });
    });

    it(`${format}: the store applies them to the document it holds`, () => {
      useUi.setState({ docs: {}, order: [], activeId: null });
      ui.putDoc({ ...run.initial, registry: [] }, true);
      for (const step of run.steps) ui.applyDelta(step.delta);
      const last = run.steps[run.steps.length - 1].view;
      expect(ui.get().docs[run.initial.id]).toEqual({ ...last, registry: [] });
    });
  }
});
