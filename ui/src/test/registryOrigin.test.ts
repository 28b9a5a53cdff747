import { describe, expect, it } from "vitest";
import type { NodeSpec } from "../bindings";
import { configChannelUses } from "../lib/channelRefs";
import { fieldsFromSchema } from "../lib/schemaForm";
import { bySource, originSentence } from "../panels/RegistryPanel";
import { rust } from "./recorded";

// The built-in registry as Rust sends it with the example document.
const registry = rust.example.view.registry;
const type = (name: string) => {
  const t = registry.find((x) => x.type === name);
  if (!t) throw new Error(`${name} is not in Rust's registry`);
  return t;
};

describe("who defines a type, from Rust's data", () => {
  it("groups the runtime's published types before Trellis's examples", () => {
    const sections = bySource(registry);
    expect(sections.map((s) => s.key)).toEqual(["runtime-Ilmek", "examples"]);
    const [published, examples] = sections;
    const names = (s: (typeof sections)[number]) => s.groups.flatMap((g) => g.types.map((t) => t.type));
    expect(names(published).sort()).toEqual(["a2a_call", "mcp_resource", "mcp_tool", "skill", "skills"]);
    expect(published.title).toBe("Published by Ilmek 0.2.0");
    expect(published.note).toContain("@ilmek/mcp");
    expect(names(examples)).toContain("llm");
    expect(names(examples)).not.toContain("mcp_tool");
  });
  it("says it in a sentence", () => {
    expect(originSentence(type("mcp_tool").origin)).toBe("Published by Ilmek in @ilmek/mcp 0.2.0, described as the runtime defines it.");
    expect(originSentence(type("http").origin)).toBe("A Trellis example: no runtime publishes this type.");
  });
});

describe("the runtime's config fields in the form", () => {
  it("edits open fields as their default's or example's type, and marks the host's names", () => {
    const by = Object.fromEntries(fieldsFromSchema(type("mcp_tool").config_schema).map((f) => [f.name, f]));
    expect(by.text.kind).toBe("boolean");
    expect(by.argumentsFrom.kind).toBe("string");
    expect(by.arguments.kind).toBe("json");
    expect(by.to).toMatchObject({ kind: "string", default: "result" });
    expect(by.server).toMatchObject({ required: true, hostResolved: true });
    expect(by.to.hostResolved).toBe(false);
  });
  it("counts a left-out channel field as a use of its default channel", () => {
    const nodes: NodeSpec[] = [
      { id: "a", type: "mcp_tool", config: { server: "gh", tool: "gh__search" } },
      { id: "b", type: "mcp_tool", config: { server: "gh", tool: "gh__search", to: "hits", argumentsFrom: "query" } },
      { id: "c", type: "skills", config: {} },
    ];
    const used = configChannelUses(nodes, registry);
    expect(Object.fromEntries(used)).toEqual({ result: 1, hits: 1, query: 1, instructions: 1 });
  });
});
