import { describe, expect, it } from "vitest";
import { freshId, idStem } from "../lib/ids";

describe("fresh node ids from the type", () => {
  it("uses the type name when free, then _2, _3", () => {
    expect(freshId("llm", new Set())).toBe("llm");
    expect(freshId("llm", new Set(["llm"]))).toBe("llm_2");
    expect(freshId("llm", new Set(["llm", "llm_2", "llm_3"]))).toBe("llm_4");
  });
  it("continues a numeric suffix instead of stacking another", () => {
    expect(freshId("agent_2", new Set(["agent_2"]))).toBe("agent_3");
  });
  it("makes readable stems from any type name", () => {
    expect(idStem("mcp.tool")).toBe("mcp_tool");
    expect(idStem("HttpRequest")).toBe("http_request");
    expect(idStem("  Café Order ")).toBe("cafe_order");
    expect(idStem("3d-render")).toBe("n_3d_render");
    expect(idStem("!!!")).toBe("node");
  });
  it("never answers a reserved id", () => {
    expect(freshId("__start__", new Set())).toBe("start");
    expect(freshId("__end__", new Set(["end"]))).toBe("end_2");
  });
  it("accepts a predicate for large documents", () => {
    const taken = new Set(Array.from({ length: 1000 }, (_, i) => (i === 0 ? "http" : `http_${i + 1}`)));
    expect(freshId("http", (id) => taken.has(id))).toBe("http_1001");
  });
});
