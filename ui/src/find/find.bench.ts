// The find bar against its budget: each keystroke answers within 50 ms on 100,000 nodes.
// `npm run bench:find -w ui` (vitest bench). A keystroke is `setQuery`: the search over the
// index plus the set of nodes to outline; the index is built once per document view.
import { bench, describe } from "vitest";
import type { DocumentView } from "../bindings";
import { generateGraph } from "../perf/generate";
import { ui } from "../store";
import { FindIndex } from "./findIndex";
import { indexOf, openFind, setQuery } from "./findState";

const N = Number(process.env.FIND_BENCH_N ?? 100_000);
const g = generateGraph(N);
const view = {
  id: "1",
  path: null,
  fileName: "big.json",
  format: "graphspec",
  dirty: false,
  spec: g.spec,
  weaveflow: null,
  graphmd: null,
  layout: { positions: g.positions, viewport: null },
  layoutMissing: false,
  diagnostics: [],
  registry: [],
  canUndo: false,
  canRedo: false,
  notices: [],
  conflict: null,
} as unknown as DocumentView;
ui.set({ docs: { "1": view }, order: ["1"], activeId: "1", extraDiagnostics: {} });
indexOf(view);
openFind();

// What a user types, one keystroke at a time, to find one node by a config value.
const typed = "api.example.com/v1/items/77777".split("").map((_, i, a) => a.slice(0, i + 1).join(""));

describe(`find on ${N.toLocaleString("en")} nodes`, () => {
  bench('one keystroke (setQuery), many matches: "l"', () => setQuery("l"));
  bench('one keystroke (setQuery), one match: "items/77777"', () => setQuery("items/77777"));
  bench('one keystroke (setQuery), no match: "zzzz"', () => setQuery("zzzz"));
  bench("typing a 30-character query, each keystroke answered (30 setQuery)", () => {
    for (const q of typed) setQuery(q);
  });
  bench("building the index (once per document change)", () => void new FindIndex(view), { iterations: 5 });
});
