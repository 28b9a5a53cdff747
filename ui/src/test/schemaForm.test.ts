import { describe, expect, it } from "vitest";
import { coerce, configFieldOf, display, fieldsFromSchema, kindOf, pointerSegment, unknownFields } from "../lib/schemaForm";
import { rust } from "./recorded";

// The built-in `llm` type as Rust sends it.
const llm = rust.example.view.registry.find((t) => t.type === "llm");

describe("schema form fields", () => {
  it("derives fields, kinds, ranges and required from the schema", () => {
    const f = fieldsFromSchema(llm?.config_schema);
    const by = Object.fromEntries(f.map((x) => [x.name, x]));
    // Rust's `llm` requires nothing (the runtime has a default model).
    expect(by.model).toMatchObject({ kind: "string", required: false });
    expect(by.system_prompt.kind).toBe("text");
    expect(by.temperature).toMatchObject({ kind: "number", minimum: 0, maximum: 2 });
    expect(by.max_tokens).toMatchObject({ kind: "integer", minimum: 1 });
    expect(by.tools.kind).toBe("string-list");
    const withRequired = fieldsFromSchema({ type: "object", required: ["url"], properties: { url: { type: "string" } } });
    expect(withRequired[0]).toMatchObject({ name: "url", required: true });
  });
  it("maps the subset the registry uses", () => {
    expect(kindOf("m", { enum: ["GET", "POST"] })).toBe("enum");
    expect(kindOf("h", { type: "object", additionalProperties: { type: "string" } })).toBe("string-map");
    expect(kindOf("b", { type: "boolean" })).toBe("boolean");
    expect(kindOf("x", { type: ["string", "null"] })).toBe("string");
    expect(kindOf("o", { type: "object", properties: { a: {} } })).toBe("json");
    expect(kindOf("v", {})).toBe("json");
  });
  it("names config fields the schema does not know", () => {
    expect(unknownFields({ model: "m", seed: 1 }, llm?.config_schema)).toEqual(["seed"]);
    expect(unknownFields({ a: 1 }, undefined)).toEqual([]);
  });
});

describe("schema form value coercion", () => {
  it("numbers: a number, empty removes, text is refused", () => {
    expect(coerce({ kind: "number" }, "0.5")).toEqual({ ok: true, value: 0.5 });
    expect(coerce({ kind: "number" }, " ")).toEqual({ ok: true, remove: true });
    expect(coerce({ kind: "number" }, "warm")).toMatchObject({ ok: false });
    expect(coerce({ kind: "integer" }, "1.5")).toMatchObject({ ok: false, error: "Enter a whole number." });
    // Ranges are Rust's to judge: 5 is stored, and its diagnostic shows under the field.
    expect(coerce({ kind: "number" }, "5")).toEqual({ ok: true, value: 5 });
  });
  it("strings stay strings, booleans stay booleans", () => {
    expect(coerce({ kind: "string" }, "42")).toEqual({ ok: true, value: "42" });
    expect(coerce({ kind: "boolean" }, true)).toEqual({ ok: true, value: true });
  });
  it("enums keep the option's JSON type", () => {
    const f = { kind: "enum" as const, enumValues: ["1", 1, null] };
    expect(coerce(f, '"1"')).toEqual({ ok: true, value: "1" });
    expect(coerce(f, "1")).toEqual({ ok: true, value: 1 });
    expect(coerce(f, "null")).toEqual({ ok: true, value: null });
    expect(coerce(f, "2")).toMatchObject({ ok: false });
  });
  it("lists of strings one per line; maps as key: value lines", () => {
    expect(coerce({ kind: "string-list" }, "search\n\n  fetch \n")).toEqual({ ok: true, value: ["search", "fetch"] });
    expect(coerce({ kind: "string-map" }, "Accept: application/json\nX-Key: a:b")).toEqual({
      ok: true,
      value: { Accept: "application/json", "X-Key": "a:b" },
    });
    expect(coerce({ kind: "string-map" }, "novalue")).toMatchObject({ ok: false });
    expect(coerce({ kind: "string-map" }, "a: 1\na: 2")).toMatchObject({ ok: false, error: expect.stringContaining("twice") });
  });
  it("display is the inverse of coerce", () => {
    for (const [kind, v] of [
      ["string-list", ["a", "b"]],
      ["string-map", { k: "v" }],
      ["number", 2],
      ["json", { a: [1] }],
      ["boolean", false],
    ] as const) {
      const c = coerce({ kind }, kind === "boolean" ? (v as boolean) : display({ kind }, v));
      expect(c).toEqual({ ok: true, value: v });
    }
  });
  it("finds the field a diagnostic pointer names", () => {
    expect(configFieldOf("/nodes/3/config/temperature", 3)).toBe("temperature");
    expect(configFieldOf("/nodes/3/config/tools/0", 3)).toBe("tools");
    expect(configFieldOf("/nodes/3/config/a~1b", 3)).toBe("a/b");
    expect(configFieldOf("/nodes/3/config", 3)).toBeNull();
    expect(configFieldOf("/nodes/30/config/x", 3)).toBeUndefined();
    expect(pointerSegment("a/b~c")).toBe("a~1b~0c");
  });
});
