// The document's notices in the status bar: the most pressing one on one line (cut with "…",
// whole in its tooltip), and when there are more, a button that opens them all as a list above
// the status bar, one per line, wrapped and scrolled (an import can leave 26 of them).
import { type ReactNode, useState } from "react";
import type { Notice } from "../bindings";
import { count } from "../lib/counts";

const RANK: Record<string, number> = { error: 0, warning: 1, info: 2 };

/** The notices, most pressing first (errors, then warnings, each kind in Rust's order). */
export function byLevel(notices: readonly Notice[]): Notice[] {
  return [...notices].sort((a, b) => (RANK[a.level] ?? 3) - (RANK[b.level] ?? 3));
}

/** `action`: what a notice offers to do (a button), if anything. */
export function StatusNotices({ notices, action }: { notices: readonly Notice[]; action?: (n: Notice) => ReactNode }) {
  const [open, setOpen] = useState(false);
  if (!notices.length) return null;
  const sorted = byLevel(notices);
  const first = sorted[0];
  return (
    <span className="status-notices">
      <span className={`notice ${first.level}`} data-testid="notice" data-code={first.code ?? ""} title={first.message}>
        {first.message}
      </span>
      {action?.(first)}
      {sorted.length > 1 && (
        <button
          type="button"
          className="link notices-toggle"
          data-testid="notices-toggle"
          aria-expanded={open}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? "hide" : `+${(sorted.length - 1).toLocaleString("en-US")} more`}
        </button>
      )}
      {open && sorted.length > 1 && (
        <div className="notices-list" data-testid="notices-list" role="dialog" aria-label={count(sorted.length, "notice")}>
          <div className="panel-head">
            {count(sorted.length, "notice")}
            <button type="button" className="link" aria-label="close the notices" onClick={() => setOpen(false)}>
              ×
            </button>
          </div>
          <ol>
            {sorted.map((n, i) => (
              <li key={i} className={`notice ${n.level}`} data-testid="notice-item" data-code={n.code ?? ""}>
                {n.message} {i > 0 && action?.(n)}
              </li>
            ))}
          </ol>
        </div>
      )}
    </span>
  );
}
