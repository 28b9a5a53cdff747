// The page's side of a large view handed over as a script (src/api/delivery.ts): Rust's
// script and the command's answer come in either order, and a plain answer is the value.
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  DELIVERY_KEY,
  PART_RECEIVER,
  RECEIVER,
  deliveredCount,
  deliveryOf,
  installReceiver,
  receive,
  receivePart,
  settle,
} from "../api/delivery";

afterEach(() => {
  vi.useRealTimers();
});

describe("a view handed over as a script", () => {
  it("completes the call when the script comes before the answer", async () => {
    receive([101, { id: "1", spec: { nodes: [] } }]);
    await expect(settle({ [DELIVERY_KEY]: 101 })).resolves.toEqual({ id: "1", spec: { nodes: [] } });
  });

  it("puts the spec that came apart in its view, in its place", async () => {
    const spec = { name: null, nodes: [{ id: "a" }] };
    receive([103, { id: "1", path: null, spec: null, dirty: false }, spec]);
    const view = await settle<Record<string, unknown>>({ [DELIVERY_KEY]: 103 });
    expect(view).toEqual({ id: "1", path: null, spec, dirty: false });
    expect(Object.keys(view)).toEqual(["id", "path", "spec", "dirty"]);
  });

  it("puts the findings the answer brings in the view, whichever comes first", async () => {
    const found = [{ code: "config/invalid" }];
    receive([110, { id: "1", spec: null, diagnostics: [] }, { nodes: [] }]);
    await expect(settle({ [DELIVERY_KEY]: 110, diagnostics: found })).resolves.toEqual({
      id: "1",
      spec: { nodes: [] },
      diagnostics: found,
    });
    const later = settle({ [DELIVERY_KEY]: 111, diagnostics: found });
    receive([111, { id: "2", diagnostics: [] }]);
    await expect(later).resolves.toEqual({ id: "2", diagnostics: found });
    expect(deliveryOf({ [DELIVERY_KEY]: 7, diagnostics: [] })).toBe(7);
    expect(deliveryOf({ [DELIVERY_KEY]: 7, spec: {} })).toBeNull();
  });

  it("puts the parts of a spec handed over in parts in its lists, in order", async () => {
    receivePart([120, "nodes", [{ id: "a" }, { id: "b" }]]);
    receivePart([121, "nodes", [{ id: "other" }]]);
    receivePart([120, "nodes", [{ id: "c" }]]);
    receivePart([120, "edges", [{ from: "a", to: "b" }]]);
    receivePart([120, "edges", [{ from: "b", to: "c" }]]);
    receive([120, { id: "1", spec: null }, { name: "g", channels: {}, nodes: [], edges: [] }]);
    await expect(settle({ [DELIVERY_KEY]: 120 })).resolves.toEqual({
      id: "1",
      spec: {
        name: "g",
        channels: {},
        nodes: [{ id: "a" }, { id: "b" }, { id: "c" }],
        edges: [
          { from: "a", to: "b" },
          { from: "b", to: "c" },
        ],
      },
    });
    // Another delivery's parts are its own.
    receive([121, { id: "2", spec: null }, { nodes: [], edges: [] }]);
    await expect(settle({ [DELIVERY_KEY]: 121 })).resolves.toEqual({ id: "2", spec: { nodes: [{ id: "other" }], edges: [] } });
  });

  it("completes the call when the answer comes first", async () => {
    const view = settle<{ id: string }>({ [DELIVERY_KEY]: 102 });
    receive([102, { id: "2" }]);
    await expect(view).resolves.toEqual({ id: "2" });
  });

  it("gives each call its own view, whatever the order", async () => {
    const a = settle({ [DELIVERY_KEY]: 104 });
    receive([105, "five"]);
    receive([104, "four"]);
    await expect(a).resolves.toBe("four");
    await expect(settle({ [DELIVERY_KEY]: 105 })).resolves.toBe("five");
  });

  it("takes a plain answer as the value, a view or a cancelled dialog's null", async () => {
    const view = { id: "3", [DELIVERY_KEY + "x"]: 1 };
    await expect(settle(view)).resolves.toBe(view);
    await expect(settle(null)).resolves.toBeNull();
    expect(deliveryOf({ [DELIVERY_KEY]: 7, id: "1" })).toBeNull();
    expect(deliveryOf({ [DELIVERY_KEY]: "7" })).toBeNull();
    expect(deliveryOf([7])).toBeNull();
  });

  it("fails in the editor's words when the script never comes", async () => {
    vi.useFakeTimers();
    const view = settle({ [DELIVERY_KEY]: 106 }, 1000);
    vi.advanceTimersByTime(1001);
    await expect(view).rejects.toThrow("The document did not reach the window. Open it again.");
    // A script coming after that is dropped (not kept for an answer that will not come).
    receive([106, "late"]);
    const again = settle({ [DELIVERY_KEY]: 106 }, 1000);
    vi.advanceTimersByTime(1001);
    await expect(again).rejects.toThrow("did not reach the window");
  });

  it("is what the page's receiver calls, and counts the views", () => {
    const target: Record<string, unknown> = {};
    installReceiver(target);
    const before = deliveredCount();
    (target[RECEIVER] as typeof receive)([108, "eight"]);
    expect(deliveredCount()).toBe(before + 1);
    expect(target[PART_RECEIVER]).toBe(receivePart);
  });
});
