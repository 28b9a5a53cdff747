// Runs elkjs off the main thread: one message in ({id, graph}), one message out.
import ELK from "elkjs/lib/elk.bundled.js";

const elk = new ELK();
self.onmessage = async (ev: MessageEvent<{ id: number; graph: unknown }>) => {
  const { id, graph } = ev.data;
  try {
    const result = await elk.layout(graph as Parameters<typeof elk.layout>[0]);
    (self as unknown as Worker).postMessage({ id, result });
  } catch (e) {
    (self as unknown as Worker).postMessage({ id, error: String((e as Error)?.message ?? e) });
  }
};
