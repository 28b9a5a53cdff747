import { describe, expect, it } from "vitest";
import { groupByCategory, makeTypeSearch } from "../lib/fuzzy";
import { rust } from "./recorded";

// The registry Rust sends with a document (the built-in types).
const TYPES = rust.example.view.registry;

describe("registry search", () => {
  const search = makeTypeSearch(TYPES);
  it("lists everything for an empty query", () => {
    expect(search("  ")).toHaveLength(TYPES.length);
  });
  it("ranks an exact type name first", () => {
    expect(search("http")[0].type).toBe("http");
    expect(search("llm")[0].type).toBe("llm");
  });
  it("matches titles and descriptions, with typos", () => {
    expect(search("aproval").map((t) => t.type)).toContain("human_approval");
    expect(search("vector index").map((t) => t.type)).toContain("retrieval");
    expect(search("chat modle").map((t) => t.type)).toContain("llm");
  });
  it("finds nothing for nonsense", () => {
    expect(search("zzqqxx")).toEqual([]);
  });
  it("groups by category in first-seen order, uncategorised last as Other", () => {
    const groups = groupByCategory([...TYPES, { type: "mystery" }]);
    expect(groups[0].category).toBe(TYPES[0].category);
    expect(groups[groups.length - 1]).toEqual({ category: "Other", types: [{ type: "mystery" }] });
    expect(groups.reduce((n, g) => n + g.types.length, 0)).toBe(TYPES.length + 1);
  });
});
