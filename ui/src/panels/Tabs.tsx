// The document tabs: one per open document, each with a close button; when they do not fit
// they scroll (the active one is kept in view) and a menu lists them all.
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { activate, registerAction } from "../actions";
import { errorMessage } from "../api/types";
import { ui, useUi } from "../store";

/** Closes one document (Rust asks about unsaved changes first); the next tab is shown. */
export async function closeTab(id: string) {
  const b = ui.get().backend;
  if (!b) return;
  try {
    if (await b.close(id)) ui.dropDoc(id);
    const next = ui.get().activeId;
    if (next) void b.setActive(next).catch(() => {});
  } catch (err) {
    ui.toast("error", errorMessage(err));
  }
}

/** Shows the next (`step` 1) or previous (-1) tab, going round at the ends (Ctrl+Tab,
 * Ctrl+Shift+Tab, Ctrl+PageDown, Ctrl+PageUp). */
export function cycleTab(step: number) {
  const { order, activeId } = ui.get();
  if (order.length < 2) return;
  const at = activeId ? order.indexOf(activeId) : -1;
  activate(order[(at + step + order.length) % order.length]);
}
registerAction("next-tab", () => cycleTab(1));
registerAction("prev-tab", () => cycleTab(-1));

export function Tabs() {
  const order = useUi((s) => s.order);
  const docs = useUi((s) => s.docs);
  const activeId = useUi((s) => s.activeId);
  const strip = useRef<HTMLDivElement>(null);
  const [overflow, setOverflow] = useState(false);

  // Whether the tabs overflow: measured on resize and whenever the tabs change. Against the
  // whole area, not the strip: the menu, once shown, takes room from the strip, so tabs that
  // fit again without it would still overflow the narrowed strip and the menu would stay.
  useLayoutEffect(() => {
    const el = strip.current;
    if (!el) return;
    const area = el.parentElement ?? el;
    const measure = () => setOverflow(el.scrollWidth > area.clientWidth + 1);
    measure();
    const ro = typeof ResizeObserver !== "undefined" ? new ResizeObserver(measure) : null;
    ro?.observe(el);
    ro?.observe(area);
    return () => ro?.disconnect();
  }, [order, docs]);

  useEffect(() => {
    const el = strip.current?.querySelector<HTMLElement>(`[data-testid="tab"][data-doc-id="${CSS.escape(activeId ?? "")}"]`);
    el?.scrollIntoView?.({ block: "nearest", inline: "nearest" });
  }, [activeId, order]);

  return (
    <div className="tabs-area">
      {/* A group of buttons, not a tablist: a tablist may hold only tabs, and each tab here has
          its close button beside it (axe-core's aria-required-children). */}
      <div className="tabs" role="group" aria-label="Open documents" ref={strip}>
        {order.map((id) => {
          const d = docs[id];
          const name = d?.fileName ?? id;
          const active = id === activeId;
          return (
            <div key={id} className={`tab${active ? " active" : ""}`} title={d?.path ?? name}>
              <button
                aria-current={active ? "page" : undefined}
                className="tab-name"
                data-testid="tab"
                data-doc-id={id}
                data-dirty={String(!!d?.dirty)}
                // Shown on the press, as a browser's tabs are: once the strip scrolls, the
                // press's focus brings a half-hidden tab into view, the strip moves under the
                // pointer, and the release lands elsewhere, so a click never came.
                onMouseDown={(e) => e.button === 0 && activate(id)}
                onClick={() => activate(id)}
                onAuxClick={(e) => e.button === 1 && void closeTab(id)}
              >
                {name}
                {d?.dirty ? (
                  <span className="dirty" data-testid="dirty-marker" aria-label="unsaved changes">
                    {" "}
                    ●
                  </span>
                ) : null}
              </button>
              <button
                className="tab-close"
                data-testid="tab-close"
                aria-label={`Close ${name}`}
                title={`Close ${name} (Ctrl+W)`}
                onClick={() => void closeTab(id)}
              >
                ×
              </button>
            </div>
          );
        })}
      </div>
      {overflow && (
        <select
          className="tabs-menu"
          data-testid="tabs-menu"
          aria-label="All open documents"
          value={activeId ?? ""}
          onChange={(e) => {
            if (e.target.value) activate(e.target.value);
          }}
        >
          {order.map((id) => (
            <option key={id} value={id}>
              {(docs[id]?.dirty ? "● " : "") + (docs[id]?.fileName ?? id)}
            </option>
          ))}
        </select>
      )}
    </div>
  );
}
