import { describe, expect, it } from "vitest";
import { FAKE_TYPES } from "../api/fakeRegistry";
import { groupByCategory, makeTypeSearch } from "../lib/fuzzy";

describe("registry search", () => {
  const search = makeTypeSearch(FAKE_TYPES);
  it("lists everything for an empty query", () => {
    expect(search("  ")).toHaveLength(FAKE_TYPES.length);
  });
  it("ranks an exact type name first", () => {
    expect(search("http")[0].type).toBe("http");
    expect(search("llm")[0].type).toBe("llm");
  });
  it("matches titles and descriptions, with typos", () => {
    expect(search("aproval").map((t) => t.type)).toContain("human_approval");
    expect(search("vector index").map((t) => t.type)).toContain("retrieval");
    expect(search("langauge model").map((t) => t.type)).toContain("llm");
  });
  it("finds nothing for nonsense", () => {
    expect(search("zzqqxx")).toEqual([]);
  });
  it("groups by category in first-seen order, uncategorised last as Other", () => {
    const groups = groupByCategory([...FAKE_TYPES, { type: "mystery" }]);
    expect(groups[0].category).toBe("AI");
    expect(groups[groups.length - 1]).toEqual({ category: "Other", types: [{ type: "mystery" }] });
    expect(groups.reduce((n, g) => n + g.types.length, 0)).toBe(FAKE_TYPES.length + 1);
  });
});
