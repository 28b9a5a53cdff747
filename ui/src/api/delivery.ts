// A large document view handed over as a script. A command called with `byScript: true`
// answers a large view (its spec text 1 MiB or more) by running
// `window.__TRELLIS_DELIVER__([number, <the view's JSON>])` in this page and answering only
// `{"__trellisDelivery": number}`: WebKit reads a 34 MB view (100,000 nodes) 100-250 ms
// sooner as a script's literal than as an IPC answer it carries and then parses
// (src-tauri/src/view.rs, `view_answer`). The script and the answer come in either order;
// whichever comes second completes the call.

/** The key of the answer that stands for a view handed over as a script (`view::DELIVERY_KEY`). */
export const DELIVERY_KEY = "__trellisDelivery";
/** The page's function that Rust's script calls (`view::RECEIVER`). */
export const RECEIVER = "__TRELLIS_DELIVER__";
/** How long an answer waits for its script before the call fails. */
export const DELIVERY_WAIT_MS = 60_000;

type Waiter = { resolve: (value: unknown) => void; timer: ReturnType<typeof setTimeout> };

/** Views whose script came before their answer, by delivery number. */
const arrived = new Map<number, unknown>();
/** Answers waiting for their script. */
const waiting = new Map<number, Waiter>();
/** Deliveries whose call gave up waiting: a script coming after that is dropped, not kept. */
const abandoned = new Set<number>();
/** How many views came as scripts (read by the end-to-end test through `__trellisPerf`). */
let delivered = 0;

/** What Rust's script calls, with `[delivery number, view]` (one argument: the form WebKit
 * reads with its JSON parser): completes the waiting call, or keeps the view for its answer. */
export function receive([delivery, value]: [number, unknown]): void {
  delivered += 1;
  if (abandoned.delete(delivery)) return;
  const w = waiting.get(delivery);
  if (!w) {
    arrived.set(delivery, value);
    return;
  }
  waiting.delete(delivery);
  clearTimeout(w.timer);
  w.resolve(value);
}

/** The delivery number an answer stands for, or null for an answer that is the value itself. */
export function deliveryOf(answer: unknown): number | null {
  if (typeof answer !== "object" || answer === null || Array.isArray(answer)) return null;
  const keys = Object.keys(answer);
  const n = (answer as Record<string, unknown>)[DELIVERY_KEY];
  return keys.length === 1 && typeof n === "number" ? n : null;
}

/** The value of `answer`: itself, or the view its script brings (now or when it comes). */
export function settle<T>(answer: unknown, waitMs = DELIVERY_WAIT_MS): Promise<T> {
  const delivery = deliveryOf(answer);
  if (delivery === null) return Promise.resolve(answer as T);
  if (arrived.has(delivery)) {
    const value = arrived.get(delivery);
    arrived.delete(delivery);
    return Promise.resolve(value as T);
  }
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      waiting.delete(delivery);
      abandoned.add(delivery);
      reject(new Error("The document did not reach the window. Open it again."));
    }, waitMs);
    waiting.set(delivery, { resolve: (v) => resolve(v as T), timer });
  });
}

/** Defines the function Rust's scripts call (once, when the backend is made). */
export function installReceiver(target: Record<string, unknown> = window as unknown as Record<string, unknown>): void {
  target[RECEIVER] = receive;
}

/** How many views came as scripts so far. */
export function deliveredCount(): number {
  return delivered;
}
