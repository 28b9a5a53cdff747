// The command palette (Ctrl+Shift+P, Ctrl+K): every command of the app with its keys,
// fuzzy-searched; Enter runs the highlighted one, arrows move, Esc closes.
import { useEffect, useMemo, useRef, useState } from "react";
import { create } from "zustand";
import { registerAction, runAction } from "../actions";
import { makeCommandSearch } from "./paletteSearch";
import "./palette.css";

const usePalette = create<{ open: boolean }>(() => ({ open: false }));
export const openPalette = () => usePalette.setState({ open: true });
export const closePalette = () => usePalette.setState({ open: false });
registerAction("palette", () => usePalette.setState((s) => ({ open: !s.open })));

export function Palette() {
  const open = usePalette((s) => s.open);
  if (!open) return null;
  return <PaletteDialog />;
}

function PaletteDialog() {
  const search = useMemo(() => makeCommandSearch(), []);
  const [query, setQuery] = useState("");
  const [sel, setSel] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const found = useMemo(() => search(query), [search, query]);
  const restoreFocus = useRef<HTMLElement | null>(null);

  useEffect(() => {
    restoreFocus.current = document.activeElement as HTMLElement | null;
    input.current?.focus();
  }, []);
  useEffect(() => setSel(0), [query]);
  useEffect(() => {
    list.current?.querySelector<HTMLElement>('[aria-selected="true"]')?.scrollIntoView?.({ block: "nearest" });
  }, [sel]);

  const close = () => {
    closePalette();
    restoreFocus.current?.focus?.();
  };
  const run = (i: number) => {
    const c = found[i];
    if (!c?.action) return;
    close();
    void runAction(c.action);
  };
  return (
    <div className="overlay palette-overlay" data-testid="palette" onMouseDown={close}>
      <div className="palette" role="dialog" aria-label="Command palette" onMouseDown={(e) => e.stopPropagation()}>
        <input
          ref={input}
          data-testid="palette-input"
          role="combobox"
          aria-expanded
          aria-controls="palette-list"
          aria-activedescendant={found[sel] ? `palette-${sel}` : undefined}
          aria-label="Type a command"
          placeholder="Type a command…"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "ArrowDown") setSel((s) => Math.min(found.length - 1, s + 1));
            else if (e.key === "ArrowUp") setSel((s) => Math.max(0, s - 1));
            else if (e.key === "Enter") run(sel);
            else if (e.key === "Escape") {
              e.stopPropagation();
              close();
            } else return;
            e.preventDefault();
          }}
        />
        <ul id="palette-list" ref={list} role="listbox" aria-label="Commands">
          {found.length === 0 && <li className="muted">No command matches “{query}”.</li>}
          {found.map((c, i) => (
            <li
              key={c.action}
              id={`palette-${i}`}
              role="option"
              aria-selected={i === sel}
              className={i === sel ? "current" : ""}
              data-testid="palette-item"
              data-action={c.action}
              onMouseEnter={() => setSel(i)}
              onClick={() => run(i)}
            >
              <span className="palette-group muted">{c.group}</span>
              <span className="palette-label">{c.label}</span>
              {c.keys && <kbd>{c.keys}</kbd>}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
