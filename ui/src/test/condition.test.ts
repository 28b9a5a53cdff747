import { describe, expect, it } from "vitest";
import { OPERATORS, autoValue, fromPredicate, parseValue, toPredicate, withOperator } from "../lib/condition";
import { rust } from "./recorded";

describe("condition builder values keep their type", () => {
  it("eq with a string type stores the text as it is, even when it looks like a number", () => {
    expect(toPredicate({ channel: "c", op: "eq", valueType: "string", text: "3", extra: {} })).toEqual({
      ok: true,
      predicate: { channel: "c", eq: "3" },
    });
  });
  it("eq with a number type stores a number, and refuses text", () => {
    expect(toPredicate({ channel: "c", op: "eq", valueType: "number", text: "2.5", extra: {} })).toEqual({
      ok: true,
      predicate: { channel: "c", eq: 2.5 },
    });
    expect(parseValue({ op: "eq", valueType: "number", text: "abc" }).ok).toBe(false);
  });
  it("booleans, null and JSON", () => {
    expect(parseValue({ op: "neq", valueType: "boolean", text: "false" })).toEqual({ ok: true, value: false });
    expect(parseValue({ op: "eq", valueType: "null", text: "" })).toEqual({ ok: true, value: null });
    expect(parseValue({ op: "eq", valueType: "json", text: '{"a":1}' })).toEqual({ ok: true, value: { a: 1 } });
    expect(parseValue({ op: "eq", valueType: "json", text: "{a" }).ok).toBe(false);
  });
  it("in takes a comma list with typed items, quotes protecting commas, or a JSON list", () => {
    expect(parseValue({ op: "in", valueType: "json", text: 'refund, return, 3, true, null, "a, b"' })).toEqual({
      ok: true,
      value: ["refund", "return", 3, true, null, "a, b"],
    });
    expect(parseValue({ op: "in", valueType: "json", text: '["x", 1]' })).toEqual({ ok: true, value: ["x", 1] });
    expect(parseValue({ op: "in", valueType: "json", text: "" }).ok).toBe(false);
    expect(parseValue({ op: "in", valueType: "json", text: "[1," }).ok).toBe(false);
  });
  it("gt and lt need a number; truthy a choice", () => {
    expect(parseValue({ op: "gt", valueType: "number", text: "10" })).toEqual({ ok: true, value: 10 });
    expect(parseValue({ op: "lt", valueType: "number", text: "" }).ok).toBe(false);
    expect(parseValue({ op: "truthy", valueType: "boolean", text: "false" })).toEqual({ ok: true, value: false });
  });
  it("needs a channel", () => {
    expect(toPredicate({ channel: "", op: "truthy", valueType: "boolean", text: "true", extra: {} }).ok).toBe(false);
  });
  it("reads stored predicates back, keeping unknown keys", () => {
    const m = fromPredicate({ channel: "intent", eq: 3, note: "kept" }, "eq");
    expect(m).toMatchObject({ channel: "intent", op: "eq", valueType: "number", text: "3", extra: { note: "kept" } });
    expect(toPredicate(m)).toEqual({ ok: true, predicate: { channel: "intent", eq: 3, note: "kept" } });
    expect(fromPredicate({ channel: "i", in: ["a", 1] }, "in")).toMatchObject({ op: "in", text: '["a",1]' });
    expect(fromPredicate({ channel: "i", truthy: false }, "truthy")).toMatchObject({ op: "truthy", text: "false" });
    expect(fromPredicate(undefined, null, "first")).toMatchObject({ channel: "first", op: "eq" });
  });
  it("edits the operator Rust says a stored guard uses", () => {
    // The corpus support agent as Rust sends it: its guard and the operator Rust read in it.
    const view = rust.support.view;
    const index = view.spec.edges.findIndex((e) => e.when);
    expect(view.edgeLabels[index]).toEqual({ text: 'intent == "buy"', operator: "eq" });
    const m = fromPredicate(view.spec.edges[index].when, view.edgeLabels[index]?.operator ?? null);
    expect(m).toMatchObject({ channel: "intent", op: "eq", valueType: "string", text: "buy" });
    expect(toPredicate(m)).toEqual({ ok: true, predicate: view.spec.edges[index].when });
  });
  it("offers every operator Rust knows, and no other", () => {
    expect([...OPERATORS].sort()).toEqual([...rust.operators].sort());
  });
  it("changing the operator carries a sensible value", () => {
    const m = fromPredicate({ channel: "i", eq: "buy" }, "eq");
    expect(withOperator(m, "in")).toMatchObject({ op: "in", text: '["buy"]' });
    expect(withOperator(m, "truthy")).toMatchObject({ op: "truthy", text: "true" });
    expect(withOperator(m, "gt")).toMatchObject({ op: "gt", valueType: "number", text: "" });
  });
  it("auto-types list items", () => {
    expect([autoValue(" 7 "), autoValue("-1.5e2"), autoValue("007"), autoValue('"3"'), autoValue("true")]).toEqual([
      7,
      -150,
      "007",
      "3",
      true,
    ]);
  });
});
