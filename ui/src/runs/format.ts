// How run figures read: durations, money, values as JSON text (long ones cut, with how much).

/** A duration in words: `850 ms`, `4.2 s`, `3 min 5 s`. */
export function duration(ms: number): string {
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

export function money(amount: number, currency?: string | null): string {
  const n = amount < 0.01 ? amount.toFixed(4) : amount.toFixed(2);
  return currency ? `${n} ${currency}` : n;
}

/** Values longer than this are cut in the inspector (the rest is counted). */
const MAX_TEXT = 20_000;

export function jsonText(v: unknown): string {
  const text = v === undefined ? "" : (JSON.stringify(v, null, 2) ?? String(v));
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}\n… ${(text.length - MAX_TEXT).toLocaleString()} more characters` : text;
}

/** A value on one line, short. */
export function shortJson(v: unknown, max = 120): string {
  const text = v === undefined ? "—" : (JSON.stringify(v) ?? String(v));
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
