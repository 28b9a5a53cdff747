// Fuzzy search over the commands for the palette (fuse.js, as the type search): the label
// weighs most, then the extra words, the group and the keys.
import Fuse from "fuse.js";
import { type Command, PALETTE_COMMANDS } from "../commands";

export function makeCommandSearch(commands: readonly Command[] = PALETTE_COMMANDS) {
  const fuse = new Fuse(commands as Command[], {
    keys: [
      { name: "label", weight: 3 },
      { name: "also", weight: 2 },
      { name: "group", weight: 1 },
      { name: "keys", weight: 1 },
    ],
    threshold: 0.4,
    ignoreLocation: true,
    includeScore: true,
  });
  /** Commands matching every word of `query` (each fuzzily, anywhere), best first (lowest
   * summed score); all of them, in list order, for an empty query. */
  return (query: string): Command[] => {
    const words = query.trim().split(/\s+/).filter(Boolean);
    if (!words.length) return [...commands];
    let scores: Map<Command, number> | null = null;
    for (const w of words) {
      const here = new Map<Command, number>();
      for (const r of fuse.search(w)) if (!scores || scores.has(r.item)) here.set(r.item, (scores?.get(r.item) ?? 0) + (r.score ?? 1));
      scores = here;
    }
    return [...(scores ?? new Map<Command, number>())].sort((a, b) => a[1] - b[1]).map(([c]) => c);
  };
}
