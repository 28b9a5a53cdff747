// Documents the fake backend can start with (`?doc=` in the browser dev mode).
import type { GraphSpec, Position } from "../bindings";
import { generateGraph } from "../perf/generate";

export type Seed = { fileName: string; path: string | null; spec: GraphSpec; positions: Record<string, Position> };

/** The corpus document `graphs-as-data.mdx-support-agent.json` as it is (its predicate reads
 * `intent`, which it never declares). */
export const SUPPORT: GraphSpec = {
  name: "support-agent",
  channels: { messages: { reducer: "append" }, cart: { reducer: "last_write" } },
  nodes: [
    { id: "agent", type: "llm", config: { model: "claude-opus-4-8", tools: ["search"] } },
    { id: "checkout", type: "http", config: { url: "…" } },
  ],
  edges: [
    { from: "__start__", to: "agent" },
    { from: "agent", to: "checkout", when: { channel: "intent", eq: "buy" } },
    { from: "checkout", to: "__end__" },
  ],
};

export const EXAMPLE: GraphSpec = {
  name: "triage-example",
  channels: { messages: { reducer: "append" }, intent: { reducer: "last_write" }, items: { reducer: "append" } },
  nodes: [
    {
      id: "classify",
      type: "classifier",
      config: { model: "claude-haiku-4-5", labels: ["buy", "refund", "other"], target_channel: "intent", input_channel: "messages" },
    },
    { id: "lookup", type: "retrieval", config: { index: "products", top_k: 5 } },
    { id: "answer", type: "llm", config: { model: "claude-opus-4-8", temperature: 0.3, tools: ["search"] } },
    { id: "checkout", type: "http", config: { url: "https://shop.example.com/checkout", method: "POST" } },
    { id: "approve", type: "human_approval", config: { prompt: "Refund this order?", required: true } },
  ],
  edges: [
    { from: "__start__", to: "classify" },
    { from: "classify", to: "checkout", when: { channel: "intent", eq: "buy" } },
    { from: "classify", to: "approve", when: { channel: "intent", in: ["refund", "return"] } },
    { from: "classify", to: "lookup", when: { channel: "intent", neq: "buy" } },
    { from: "lookup", to: "answer", when: { channel: "items", truthy: true } },
    { from: "answer", to: "__end__" },
    { from: "checkout", to: "__end__" },
    { from: "approve", to: "__end__" },
  ],
};

export function seed(name: string): Seed {
  if (name === "support")
    return { fileName: "support-agent.json", path: "/corpus/support-agent.json", spec: structuredClone(SUPPORT), positions: {} };
  if (name === "empty")
    return { fileName: "untitled.json", path: null, spec: { name: null, channels: {}, nodes: [], edges: [] }, positions: {} };
  const big = /^big:(\d+)$/.exec(name);
  if (big) {
    const { spec, positions } = generateGraph(Math.min(100000, Number(big[1])));
    return { fileName: `generated-${big[1]}.json`, path: `/bench/generated-${big[1]}.json`, spec, positions };
  }
  return { fileName: "triage-example.json", path: "/examples/triage-example.json", spec: structuredClone(EXAMPLE), positions: {} };
}
