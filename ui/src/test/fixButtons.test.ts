// "Describe all N unknown types": the types Rust's findings offer to describe, from a document
// with two unknown types and a built-in type used otherwise (fixtures/documents.json).
import { describe, expect, it } from "vitest";
import { typesToDescribe } from "../panels/FixButtons";
import { rust } from "./recorded";

describe("the types the problems panel describes at once", () => {
  const diagnostics = rust.ownTypes.view.diagnostics;

  it("are the unknown types, once each, in order", () => {
    expect(typesToDescribe(diagnostics)).toEqual(["planner", "web_search"]);
  });

  it("leave out a built-in type, which its own finding offers to replace", () => {
    const builtIn = diagnostics.filter((d) => d.code.startsWith("config/"));
    expect(builtIn.length).toBeGreaterThan(0);
    for (const d of builtIn) {
      const edits = (d.fixes ?? []).map((f) => f.edit);
      expect(edits).toContainEqual({ kind: "describe_types", types: ["llm"] });
    }
    expect(typesToDescribe(diagnostics)).not.toContain("llm");
  });
});
