// A large document view handed over as a script. A command called with `byScript: true`
// answers a large view (its spec text 1 MiB or more) by running
// `window.__TRELLIS_DELIVER__([number, <the view's JSON, spec null>, <the spec's JSON>])` in this
// page and answering only `{"__trellisDelivery": number}` (the spec comes apart so that Rust
// writes its text once, straight from the document): WebKit reads a 34 MB view (100,000 nodes) 100-250 ms
// sooner as a script's literal than as an IPC answer it carries and then parses
// (src-tauri/src/view.rs, `view_answer`). The script and the answer come in either order;
// whichever comes second completes the call.

/** The key of the answer that stands for a view handed over as a script (`view::DELIVERY_KEY`). */
export const DELIVERY_KEY = "__trellisDelivery";
/** The page's function that Rust's script calls (`view::RECEIVER`). */
export const RECEIVER = "__TRELLIS_DELIVER__";
/** How long an answer waits for its script before the call fails. */
export const DELIVERY_WAIT_MS = 60_000;
/** The key of the findings an answer may bring with its delivery number. */
const FINDINGS_KEY = "diagnostics";

type Waiter = { resolve: (value: unknown) => void; timer: ReturnType<typeof setTimeout> };

/** The function Rust's scripts call with the parts of a spec handed over in parts (`view::PART_RECEIVER`). */
export const PART_RECEIVER = "__TRELLIS_PART__";

/** The parts of specs handed over in parts, by delivery number, until their view comes. */
const parts = new Map<number, { nodes: unknown[][]; edges: unknown[][] }>();

/** Views whose script came before their answer, by delivery number. */
const arrived = new Map<number, unknown>();
/** Answers waiting for their script. */
const waiting = new Map<number, Waiter>();
/** Deliveries whose call gave up waiting: a script coming after that is dropped, not kept. */
const abandoned = new Set<number>();
/** How many views came as scripts (read by the end-to-end test through `__trellisPerf`). */
let delivered = 0;

/** What Rust's script calls, with `[delivery number, view, spec]` (one argument: the form
 * WebKit reads with its JSON parser): puts the spec in its view, then completes the waiting
 * call, or keeps the view for its answer. */
export function receive([delivery, view, spec]: [number, unknown, unknown?]): void {
  delivered += 1;
  const value = withField(view, "spec", withParts(delivery, spec));
  if (abandoned.delete(delivery)) {
    parts.delete(delivery);
    return;
  }
  const w = waiting.get(delivery);
  if (!w) {
    arrived.set(delivery, value);
    return;
  }
  waiting.delete(delivery);
  clearTimeout(w.timer);
  w.resolve(value);
}

/** What Rust's scripts call with each part of a large document handed over in parts:
 * `[delivery number, "nodes" | "edges", list]`, in order, before the view's own script. Each
 * is read while Rust writes the next. */
export function receivePart([delivery, key, list]: [number, "nodes" | "edges", unknown[]]): void {
  let got = parts.get(delivery);
  if (!got) parts.set(delivery, (got = { nodes: [], edges: [] }));
  got[key].push(list);
}

/** `spec` with the parts that came for its delivery as its nodes and edges (the view's script
 * leaves them empty then). */
function withParts(delivery: number, spec: unknown): unknown {
  const got = parts.get(delivery);
  if (!got || typeof spec !== "object" || spec === null) return spec;
  parts.delete(delivery);
  const s = spec as { nodes: unknown[]; edges: unknown[] };
  s.nodes = got.nodes.flat();
  s.edges = got.edges.flat();
  return spec;
}

/** `view` with `value` as its `key` (a view's spec that came apart from it, the findings its
 * answer brings). */
function withField(view: unknown, key: string, value: unknown): unknown {
  if (value === undefined || typeof view !== "object" || view === null) return view;
  (view as Record<string, unknown>)[key] = value;
  return view;
}

/** The delivery number an answer stands for, or null for an answer that is the value itself.
 * Besides the number, the answer may bring the view's findings (`diagnostics`): a document opened
 * now is handed over before it is checked, and the checks' findings come with the answer. */
export function deliveryOf(answer: unknown): number | null {
  if (typeof answer !== "object" || answer === null || Array.isArray(answer)) return null;
  const n = (answer as Record<string, unknown>)[DELIVERY_KEY];
  const others = Object.keys(answer).filter((k) => k !== DELIVERY_KEY);
  return typeof n === "number" && others.every((k) => k === FINDINGS_KEY) ? n : null;
}

/** The value of `answer`: itself, or the view its script brings (now or when it comes), with the
 * findings the answer brings in place of the view's own. */
export function settle<T>(answer: unknown, waitMs = DELIVERY_WAIT_MS): Promise<T> {
  const delivery = deliveryOf(answer);
  if (delivery === null) return Promise.resolve(answer as T);
  const findings = (answer as Record<string, unknown>)[FINDINGS_KEY];
  const complete = (view: unknown) => (findings === undefined ? view : withField(view, FINDINGS_KEY, findings)) as T;
  if (arrived.has(delivery)) {
    const value = arrived.get(delivery);
    arrived.delete(delivery);
    return Promise.resolve(complete(value));
  }
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      waiting.delete(delivery);
      abandoned.add(delivery);
      reject(new Error("The document did not reach the window. Open it again."));
    }, waitMs);
    waiting.set(delivery, { resolve: (v) => resolve(complete(v)), timer });
  });
}

/** Defines the function Rust's scripts call (once, when the backend is made). */
export function installReceiver(target: Record<string, unknown> = window as unknown as Record<string, unknown>): void {
  target[RECEIVER] = receive;
  target[PART_RECEIVER] = receivePart;
}

/** How many views came as scripts so far. */
export function deliveredCount(): number {
  return delivered;
}
