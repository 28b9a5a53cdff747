// Ctrl+F: the find bar over the canvas. Typing searches nodes (id, type, title, config values),
// edge conditions, channels and problems; Enter / Shift+Enter move between matches, selecting
// and framing each; Esc goes back to the view from before; the list shows the first matches.
import { useEffect, useRef } from "react";
import { ui, useUi } from "../store";
import { NO_EXTRA, closeFind, goTo, indexOf, next, setQuery, useFind } from "./findState";
import "./find.css";

const SHOWN = 50;
const KIND = { node: "node", edge: "edge", channel: "channel", problem: "problem", note: "note", group: "group" } as const;

export function FindBar() {
  const open = useFind((s) => s.open);
  const query = useFind((s) => s.query);
  const hits = useFind((s) => s.hits);
  const current = useFind((s) => s.current);
  const focusTick = useFind((s) => s.focusTick);
  const view = useUi((s) => (s.activeId ? s.docs[s.activeId] : null));
  const extra = useUi((s) => (s.activeId ? s.extraDiagnostics[s.activeId] : undefined));
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (open) {
      input.current?.focus();
      input.current?.select();
    }
  }, [open, focusTick]);
  // The document changed (an edit, another tab): the matches follow.
  useEffect(() => {
    if (useFind.getState().open) setQuery(useFind.getState().query);
  }, [view, extra]);

  if (!open || !view) return null;
  const index = indexOf(view, extra ?? NO_EXTRA);
  const first = current >= 0 ? Math.max(0, Math.min(current - 5, hits.length - SHOWN)) : 0;
  const shown = hits.slice(first, first + SHOWN);
  const count =
    hits.length === 0
      ? query.trim()
        ? "no matches"
        : ""
      : current >= 0
        ? `${current + 1} of ${hits.length}`
        : `${hits.length} match${hits.length === 1 ? "" : "es"}`;
  return (
    <div className="find-bar" role="search" data-testid="find-bar">
      <div className="find-row">
        <input
          ref={input}
          data-testid="find-input"
          aria-label="Find nodes, edges, channels and problems"
          placeholder="Find node, type, config value, condition, channel, problem…"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              if (e.altKey) return closeFind(false);
              next(e.shiftKey ? -1 : 1);
            } else if (e.key === "Escape") {
              e.preventDefault();
              e.stopPropagation();
              closeFind(true);
            } else if (e.key === "ArrowDown") {
              e.preventDefault();
              next(1);
            } else if (e.key === "ArrowUp") {
              e.preventDefault();
              next(-1);
            }
          }}
        />
        <span className="find-count" data-testid="find-count" data-total={hits.length} data-current={current} aria-live="polite">
          {count}
        </span>
        <button aria-label="previous match (Shift+Enter)" title="Previous (Shift+Enter)" onClick={() => next(-1)} disabled={!hits.length}>
          ↑
        </button>
        <button aria-label="next match (Enter)" title="Next (Enter)" onClick={() => next(1)} disabled={!hits.length}>
          ↓
        </button>
        <button
          aria-label="close and stay here (Alt+Enter)"
          title="Close, stay here (Alt+Enter)"
          data-testid="find-close"
          onClick={() => closeFind(false)}
        >
          ×
        </button>
      </div>
      {shown.length > 0 && (
        <ul className="find-list" role="listbox" aria-label="matches">
          {shown.map((i, k) => {
            const item = index.items[i];
            const pos = first + k;
            return (
              <li
                key={i}
                role="option"
                aria-selected={pos === current}
                className={pos === current ? "current" : ""}
                data-testid="find-hit"
                data-kind={item.kind}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => goTo(pos)}
              >
                <span className={`find-kind ${item.kind}`}>{KIND[item.kind]}</span>
                <span className="find-label">{item.label}</span>
                <span className="find-detail muted">
                  {item.detail} · {index.fieldOf(i, query)}
                </span>
              </li>
            );
          })}
          {hits.length > first + SHOWN && <li className="muted">… {hits.length - first - SHOWN} more (Enter goes through all)</li>}
        </ul>
      )}
    </div>
  );
}

/** For tests and the palette: whether the bar is open. */
export const findIsOpen = () => useFind.getState().open;
export { ui };
