// The registry browser: every type grouped by category, fuzzy search (`/` focuses it), a
// detail view (docs as Markdown rendered without raw HTML, config fields and defaults). Drag a
// type onto the canvas, or press Enter to add the highlighted one at the centre of the view.
import { useEffect, useMemo, useRef, useState } from "react";
import Markdown from "react-markdown";
import type { TypeInfo } from "../bindings";
import { addNode } from "../actions";
import { DRAG_MIME } from "../canvas/paletteDrop";
import { categoryColor } from "../lib/colors";
import { groupByCategory, makeTypeSearch } from "../lib/fuzzy";
import { fieldsFromSchema } from "../lib/schemaForm";
import { useUi } from "../store";
import { RegistryEditor } from "./RegistryEditor";

export function RegistryPanel({ types }: { types: TypeInfo[] }) {
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const [detail, setDetail] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const tick = useUi((s) => s.focusSearchTick);
  const search = useMemo(() => makeTypeSearch(types), [types]);
  const found = useMemo(() => search(query), [search, query]);
  const groups = useMemo(() => (query.trim() ? [{ category: "Matches", types: found }] : groupByCategory(found)), [found, query]);
  const flat = useMemo(() => groups.flatMap((g) => g.types), [groups]);

  useEffect(() => {
    if (tick) {
      input.current?.focus();
      input.current?.select();
    }
  }, [tick]);
  useEffect(() => setActive(0), [query]);

  const shown = detail ? types.find((t) => t.type === detail) : undefined;
  const docId = useUi((s) => s.activeId);
  const [editing, setEditing] = useState(false);

  if (editing && docId)
    return (
      <aside className="panel registry" data-testid="registry-panel">
        <RegistryEditor docId={docId} onClose={() => setEditing(false)} />
      </aside>
    );
  return (
    <aside className="panel registry" data-testid="registry-panel">
      <div className="panel-head">
        Node types
        <button
          className="link"
          data-testid="registry-edit-toggle"
          title="Create and edit the node types of the project registry"
          onClick={() => setEditing(true)}
        >
          Edit…
        </button>
      </div>
      <input
        ref={input}
        className="search"
        data-testid="registry-search"
        placeholder="Search types  ( / )"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown") {
            e.preventDefault();
            setActive((a) => Math.min(flat.length - 1, a + 1));
          } else if (e.key === "ArrowUp") {
            e.preventDefault();
            setActive((a) => Math.max(0, a - 1));
          } else if (e.key === "Enter" && flat[active]) {
            e.preventDefault();
            void addNode(flat[active]);
          } else if (e.key === "Escape") {
            setQuery("");
            (e.target as HTMLInputElement).blur();
          }
        }}
      />
      <div className="registry-list" role="listbox" aria-label="node types">
        {flat.length === 0 && <div className="empty">No type matches “{query}”.</div>}
        {groups.map((g) => (
          <div key={g.category} className="reg-group" data-testid={`registry-group-${g.category}`}>
            <div className="reg-cat">
              <span className="dot" style={{ background: categoryColor(g.category === "Matches" ? undefined : g.category) }} />
              {g.category}
            </div>
            {g.types.map((t) => {
              const i = flat.indexOf(t);
              return (
                <div
                  key={t.type}
                  role="option"
                  aria-selected={i === active}
                  className={`reg-item${i === active ? " active" : ""}${detail === t.type ? " open" : ""}`}
                  data-testid="registry-item"
                  data-type={t.type}
                  draggable
                  onDragStart={(e) => {
                    e.dataTransfer.setData(DRAG_MIME, t.type);
                    e.dataTransfer.setData("text/plain", t.type);
                    e.dataTransfer.effectAllowed = "copy";
                  }}
                  onClick={() => {
                    setActive(i);
                    setDetail(detail === t.type ? null : t.type);
                  }}
                  onDoubleClick={() => void addNode(t)}
                  title={t.description}
                >
                  <span className="dot" style={{ background: categoryColor(t.category) }} />
                  <span className="reg-title">{t.title || t.type}</span>
                  <code className="reg-type">{t.type}</code>
                  {t.deprecated ? <span className="deprecated">deprecated</span> : null}
                  {/* A pointer shortcut, not a control: an option may not hold a focusable
                      element (axe-core's nested-interactive); from the keyboard, Enter in the
                      search adds the highlighted type. */}
                  <span
                    className="reg-add"
                    title="Add at the centre"
                    aria-hidden
                    data-testid={`registry-add-${t.type}`}
                    onClick={(e) => (e.stopPropagation(), void addNode(t))}
                  >
                    +
                  </span>
                </div>
              );
            })}
          </div>
        ))}
      </div>
      {shown && <TypeDetail t={shown} onClose={() => setDetail(null)} />}
    </aside>
  );
}

export function TypeDetail({ t, onClose }: { t: TypeInfo; onClose: () => void }) {
  const fields = fieldsFromSchema(t.config_schema);
  const defaults = (t.defaults ?? {}) as Record<string, unknown>;
  return (
    <div className="type-detail" data-testid="type-detail">
      <div className="td-head">
        <strong>{t.title || t.type}</strong> <code>{t.type}</code>
        {t.version ? <span className="muted"> v{t.version}</span> : null}
        <button className="link" onClick={onClose} aria-label="close">
          ×
        </button>
      </div>
      {t.deprecated ? <div className="warn-box">Deprecated{typeof t.deprecated === "string" ? `: ${t.deprecated}` : "."}</div> : null}
      {t.description ? <p>{t.description}</p> : null}
      {t.docs ? (
        <div className="md" data-testid="type-docs">
          {/* react-markdown builds React elements; raw HTML is skipped, never injected. */}
          <Markdown skipHtml>{t.docs}</Markdown>
        </div>
      ) : null}
      {fields.length > 0 && (
        <table className="td-fields">
          <thead>
            <tr>
              <th>field</th>
              <th>kind</th>
              <th>default</th>
            </tr>
          </thead>
          <tbody>
            {fields.map((f) => (
              <tr key={f.name}>
                <td>
                  <code>{f.name}</code>
                  {f.required ? <span className="req">*</span> : null}
                </td>
                <td>
                  {f.kind}
                  {f.minimum !== undefined || f.maximum !== undefined ? ` ${f.minimum ?? "…"}..${f.maximum ?? "…"}` : ""}
                  {f.enumValues ? `: ${f.enumValues.map((v) => JSON.stringify(v)).join(" | ")}` : ""}
                </td>
                <td>
                  <code>{f.name in defaults ? JSON.stringify(defaults[f.name]) : ""}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
