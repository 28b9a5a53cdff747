import { describe, expect, it } from "vitest";
import { operatorOf, predicateLabel, shortLabel } from "../lib/labels";

// The Mermaid conformance vector corpus/ilmek/viz/predicates.{json,mmd}, unescaped.
describe("predicate labels (Mermaid style)", () => {
  it.each([
    [{ channel: "intent", eq: "buy" }, 'intent == "buy"'],
    [{ channel: "intent", in: ["refund", "return", 3, true, null] }, 'intent in ["refund", "return", 3, true, null]'],
    [{ channel: "count", gt: 10 }, "count > 10"],
    [{ channel: "count", lt: 2.5 }, "count < 2.5"],
    [{ channel: "items", truthy: true }, "truthy(items)"],
    [{ channel: "items", truthy: false }, "not truthy(items)"],
    [{ channel: "intent", neq: 'say "hi" #1 <b>`x`</b>' }, 'intent != "say \\"hi\\" #1 <b>`x`</b>"'],
    [{ channel: "x", eq: null }, "x == null"],
    [{ channel: "x", eq: { a: [1, 2] } }, 'x == {"a":[1,2]}'],
  ])("%j -> %s", (p, label) => {
    expect(predicateLabel(p)).toBe(label);
  });

  it("uses the engine's precedence: the first operator present wins", () => {
    expect(predicateLabel({ channel: "c", truthy: true, eq: 1 })).toBe("c == 1");
    expect(operatorOf({ channel: "c", lt: 1, gt: 2 })).toBe("gt");
  });

  it("does not count a non-array `in` as an operator", () => {
    expect(operatorOf({ channel: "c", in: "abc" as never })).toBeNull();
    expect(predicateLabel({ channel: "c", in: "abc" as never })).toBe("c ?");
    expect(predicateLabel({ channel: "c", in: "abc" as never, lt: 3 })).toBe("c < 3");
  });

  it("names a missing channel", () => {
    expect(predicateLabel({ eq: 1 } as never)).toBe("? == 1");
  });

  it("shortens long labels for the canvas only", () => {
    expect(shortLabel("a".repeat(50), 10)).toBe(`${"a".repeat(9)}…`);
    expect(shortLabel("short")).toBe("short");
  });
});
