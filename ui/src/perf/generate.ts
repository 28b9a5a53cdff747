// A deterministic generator of large GraphSpec documents for the browser dev mode and the
// canvas benchmarks: about two edges per node, a third guarded, fan-out and cycles, configs of
// about 150 bytes, types from the registry, positions on a layered grid.
import type { GraphSpec, Point } from "../bindings";

function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

const TYPES = ["llm", "http", "tool", "classifier", "retrieval", "set_value", "judge", "wait"];

export function generateGraph(n: number, seed = 42): { spec: GraphSpec; positions: Record<string, Point> } {
  const r = rng(seed);
  const nodes: GraphSpec["nodes"] = [];
  const positions: Record<string, Point> = {};
  const perCol = Math.max(4, Math.round(Math.sqrt(n)));
  for (let i = 0; i < n; i++) {
    const type = TYPES[i % TYPES.length];
    const config: Record<string, unknown> =
      type === "llm"
        ? {
            model: "claude-opus-4-8",
            prompt: `Step ${i}: summarise the conversation so far.`,
            temperature: 0.5,
            max_tokens: 512,
            tools: ["search"],
          }
        : type === "http"
          ? { url: `https://api.example.com/v1/items/${i}`, method: "GET", headers: { Accept: "application/json" }, timeout_ms: 30000 }
          : type === "classifier"
            ? { labels: ["buy", "support", "other"], target_channel: "intent", input_channel: "messages" }
            : type === "retrieval"
              ? { index: "docs", top_k: 5, query_channel: "messages", output_channel: "context" }
              : type === "judge"
                ? { seat: "gate", questions: ["Grounded?"], confidence_threshold: 0.8 }
                : type === "wait"
                  ? { seconds: 2 }
                  : type === "tool"
                    ? { tool: "search", arguments: { q: "x" } }
                    : { channel: "status", value: `step ${i}` };
    const id = `${type}_${i}`;
    nodes.push({ id, type, config });
    positions[id] = { x: Math.floor(i / perCol) * 290, y: (i % perCol) * 100 };
  }
  const edges: GraphSpec["edges"] = [{ from: "__start__", to: nodes[0]?.id ?? "__end__" }];
  for (let i = 0; i < n; i++) {
    const from = nodes[i].id;
    const fan = 1 + (r() < 0.5 ? 1 : 0) + (r() < 0.5 ? 1 : 0);
    for (let k = 0; k < fan && edges.length < 2 * n + 1; k++) {
      const back = r() < 0.08;
      const j = back ? Math.max(0, i - 1 - Math.floor(r() * 10)) : Math.min(n - 1, i + 1 + Math.floor(r() * perCol * 1.5));
      if (j === i && !back) {
        edges.push({ from, to: "__end__" });
        continue;
      }
      const guarded = r() < 0.33;
      edges.push(
        guarded
          ? { from, to: nodes[j].id, when: { channel: "intent", eq: ["buy", "support", "other"][k % 3] } }
          : { from, to: nodes[j].id },
      );
    }
  }
  return {
    spec: {
      name: `generated-${n}`,
      channels: {
        messages: { reducer: "append" },
        intent: { reducer: "last_write" },
        context: { reducer: "last_write" },
        status: { reducer: "last_write" },
      },
      nodes,
      edges,
    },
    positions,
  };
}
