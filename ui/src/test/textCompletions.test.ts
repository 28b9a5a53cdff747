// The text pane's completions on Rust's own text and view of the built-in example
// (fixtures/text-pane.json and fixtures/documents.json, written by Rust tests): where the cursor
// is decides what is offered, and what is offered is what the document and its registry name.
import { CompletionContext, type CompletionResult } from "@codemirror/autocomplete";
import { json } from "@codemirror/lang-json";
import { ensureSyntaxTree } from "@codemirror/language";
import { EditorState } from "@codemirror/state";
import { describe, expect, it } from "vitest";
import type { DocumentView } from "../bindings";
import { completionSource } from "../textPane/completions";
import documents from "./fixtures/documents.json";
import panes from "./fixtures/text-pane.json";

const view = (documents as unknown as { example: { view: DocumentView } }).example.view;
const text = (panes as unknown as { graphspec: { open: { text: string } } }).graphspec.open.text;

/** The options offered with the cursor just after the `at`-th occurrence of `before`. */
function offered(before: string, nth = 0): string[] {
  let at = -1;
  for (let i = 0; i <= nth; i++) at = text.indexOf(before, at + 1);
  expect(at, `${before} in the example's text`).toBeGreaterThanOrEqual(0);
  const state = EditorState.create({ doc: text, extensions: [json()] });
  // As the editor does in the background while the text is shown.
  ensureSyntaxTree(state, state.doc.length, 5000);
  const pos = at + before.length;
  const result = completionSource(() => view)(new CompletionContext(state, pos, true)) as CompletionResult | null;
  return (result?.options ?? []).map((o) => JSON.parse(o.label as string) as string);
}

describe("completions where the document names things", () => {
  it("the text is the view's document", () => {
    expect(JSON.parse(text).nodes.length).toBe(view.spec.nodes.length);
  });

  it("a node's type: the registry's types", () => {
    const types = offered('"type": "');
    expect(types).toEqual(view.registry.map((t) => t.type));
    expect(types).toContain("classifier");
  });

  it("an edge's ends: the node ids, with the start or the end", () => {
    const to = offered('"to": "');
    expect(to).toEqual([...view.spec.nodes.map((n) => n.id), "__end__"]);
    const from = offered('"from": "', 1);
    expect(from[0]).toBe("__start__");
  });

  it("a condition: its channel names the declared channels; its keys are the operators", () => {
    expect(offered('"when": {\n        "channel": "')).toEqual(Object.keys(view.spec.channels));
    const when = text.indexOf('"when": {');
    expect(when).toBeGreaterThan(0);
    const keys = offered('"when": {\n');
    expect(keys).toContain("channel");
    expect(keys).toContain("eq");
    expect(keys).toContain("truthy");
  });

  it("a config's keys: the fields of the node's type", () => {
    const node = view.spec.nodes[0];
    const schema = view.registry.find((t) => t.type === node.type)?.config_schema as { properties?: Record<string, unknown> };
    const keys = offered('"config": {\n');
    expect(keys).toEqual(Object.keys(schema.properties ?? {}));
    expect(keys.length).toBeGreaterThan(0);
  });
});
