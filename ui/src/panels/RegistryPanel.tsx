// The registry browser: every type grouped by who defines it (a runtime's published types, then
// Trellis's own examples, then the project's) and by category, fuzzy search (`/` focuses it), a
// detail view (docs as Markdown rendered without raw HTML, config fields and defaults). Drag a
// type onto the canvas, or press Enter to add the highlighted one at the centre of the view.
// Who defines a type is Rust's data (`TypeInfo.origin`, from the manifest), never a list here.
import { useEffect, useMemo, useRef, useState } from "react";
import Markdown from "react-markdown";
import type { TypeInfo, TypeOrigin } from "../bindings";
import { addNode } from "../actions";
import { DRAG_MIME } from "../canvas/paletteDrop";
import { categoryColor } from "../lib/colors";
import { type TypeGroup, groupByCategory, makeTypeSearch } from "../lib/fuzzy";
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
  const sections = useMemo(
    () => (query.trim() ? [{ key: "matches", title: "", note: "", groups: [{ category: "Matches", types: found }] }] : bySource(found)),
    [found, query],
  );
  const flat = useMemo(() => sections.flatMap((s) => s.groups.flatMap((g) => g.types)), [sections]);

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
      {/* Focusable so the keyboard can scroll it (the search box above moves the selection). */}
      <div className="registry-list" role="listbox" aria-label="node types" tabIndex={0}>
        {flat.length === 0 && <div className="empty">No type matches “{query}”.</div>}
        {sections.map((sec) => (
          <div key={sec.key} className="reg-section" data-testid={`registry-section-${sec.key}`}>
            {sec.title && (
              <div className="reg-section-head" title={sec.note}>
                {sec.title}
                {sec.note && <div className="reg-section-note">{sec.note}</div>}
              </div>
            )}
            {sec.groups.map((g) => (
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
                      data-origin={t.origin?.kind ?? "project"}
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
                      title={[t.description, originSentence(t.origin)].filter(Boolean).join("\n")}
                    >
                      <span className="dot" style={{ background: categoryColor(t.category) }} />
                      <span className="reg-title">{t.title || t.type}</span>
                      <code className="reg-type">{t.type}</code>
                      {/* Under its section's heading the tag would only repeat it (and squeeze the
                          title); among search matches it is the one place that says it. */}
                      {sec.key === "matches" && t.origin?.kind === "example" ? <span className="reg-origin example">example</span> : null}
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
        ))}
      </div>
      {shown && <TypeDetail t={shown} onClose={() => setDetail(null)} />}
    </aside>
  );
}

type Section = { key: string; title: string; note: string; groups: TypeGroup[] };

/** The types by who defines them: each runtime's published types (in first-seen order), then
 * Trellis's examples, then the rest (project registries), each grouped by category. */
export function bySource(types: readonly TypeInfo[]): Section[] {
  const runtimes = new Map<string, TypeInfo[]>();
  const examples: TypeInfo[] = [];
  const project: TypeInfo[] = [];
  for (const t of types) {
    const o = t.origin;
    if (o?.kind === "runtime") {
      const k = `${o.runtime} ${o.version}`;
      runtimes.set(k, [...(runtimes.get(k) ?? []), t]);
    } else if (o?.kind === "example") examples.push(t);
    else project.push(t);
  }
  const out: Section[] = [...runtimes.values()].map((ts) => {
    const o = ts[0].origin as Extract<TypeOrigin, { kind: "runtime" }>;
    const packages = [...new Set(ts.map((t) => (t.origin?.kind === "runtime" ? t.origin.package : undefined)).filter(Boolean))];
    return {
      key: `runtime-${o.runtime}`,
      title: `Published by ${o.runtime} ${o.version}`,
      note: `${packages.length ? `${packages.join(", ")}: ` : ""}described as the runtime defines them.`,
      groups: groupByCategory(ts),
    };
  });
  if (project.length)
    out.push({
      key: "project",
      title: runtimes.size || examples.length ? "Project types" : "",
      note: "",
      groups: groupByCategory(project),
    });
  if (examples.length)
    out.push({
      key: "examples",
      title: "Trellis examples",
      note: "No runtime publishes these: they serve the example graph and starting from scratch.",
      groups: groupByCategory(examples),
    });
  return out;
}

/** What the detail view and the tooltip say about who defines a type. */
export function originSentence(o: TypeOrigin | undefined): string {
  if (!o) return "";
  if (o.kind === "example") return "A Trellis example: no runtime publishes this type.";
  return `Published by ${o.runtime}${o.package ? ` in ${o.package}` : ""} ${o.version}, described as the runtime defines it.`;
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
      {t.origin ? (
        <div className={`td-origin ${t.origin.kind}`} data-testid="type-origin">
          {originSentence(t.origin)}
          {t.origin.kind === "runtime" && t.origin.source ? <div className="muted">Read from {t.origin.source}.</div> : null}
        </div>
      ) : null}
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
                  {f.schema["x-trellis-channel"] === true ? <span className="td-tag">channel</span> : null}
                  {f.hostResolved ? <span className="td-tag">host</span> : null}
                  {f.default !== undefined ? <span className="muted"> absent: {JSON.stringify(f.default)}</span> : null}
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
