// The connections the canvas refuses before asking Rust, on Rust's view of the example.
import { describe, expect, it } from "vitest";
import { refuseConnection } from "../canvas/Canvas";
import { rust } from "./recorded";

describe("connections the canvas refuses, with the reason", () => {
  it("into __start__, out of __end__, duplicates", () => {
    const v = rust.example.view;
    expect(v.spec.edges.some((e) => e.from === "reply" && e.to === "__end__")).toBe(true);
    expect(v.spec.edges.some((e) => e.from === "answer" && e.to === "lookup_order")).toBe(false);
    expect(refuseConnection(v, { source: "answer", target: "__start__" })).toMatch(/into __start__/);
    expect(refuseConnection(v, { source: "__end__", target: "answer" })).toMatch(/leave __end__/);
    expect(refuseConnection(v, { source: "reply", target: "__end__" })).toMatch(/already an edge/);
    expect(refuseConnection(v, { source: "answer", target: "lookup_order" })).toBeNull();
  });
});
