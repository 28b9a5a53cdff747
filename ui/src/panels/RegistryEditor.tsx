// The registry editor: the types in force for the document, by source file. Project registry
// types can be created, renamed, deleted and edited (title, category, description, Markdown
// docs, config fields as a form that Rust turns into JSON Schema); built-in types are
// read-only and can be copied into the project registry to override them. Every change is one
// `edit_registry` call: Rust checks it, writes the file atomically, keeps it for Undo, and
// revalidates every open document.
import { useCallback, useEffect, useRef, useState } from "react";
import type { FieldForm, RegistryEdit, RegistrySource, TypeInfo } from "../bindings";
import { errorMessage } from "../api/types";
import { ui, useUi } from "../store";

const JSON_TYPES = ["string", "number", "integer", "boolean", "array", "object"] as const;
const CHANNEL = "x-trellis-channel";

function backend() {
  const b = ui.get().backend;
  if (!b?.registrySources || !b.editRegistry || !b.undoRegistryEdit) throw new Error("registry files are edited in the desktop app");
  return b as Required<Pick<typeof b, "registrySources" | "editRegistry" | "undoRegistryEdit">> & typeof b;
}

/** The form of one property schema. */
function formOf(name: string, s: Record<string, unknown>, required: boolean): FieldForm {
  const num = (v: unknown) => (typeof v === "number" ? v : undefined);
  return {
    name,
    json_type: typeof s.type === "string" ? s.type : "string",
    required,
    default: s.default,
    enum_values: Array.isArray(s.enum) ? s.enum : undefined,
    minimum: num(s.minimum),
    maximum: num(s.maximum),
    pattern: typeof s.pattern === "string" ? s.pattern : undefined,
    description: typeof s.description === "string" ? s.description : undefined,
    names_channel: s[CHANNEL] === true,
  };
}

function fieldsOf(t: TypeInfo): FieldForm[] {
  const schema = (t.config_schema ?? {}) as Record<string, unknown>;
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return Object.entries(props).map(([k, s]) => formOf(k, s ?? {}, required.includes(k)));
}

export function RegistryEditor({ docId, onClose }: { docId: string; onClose: () => void }) {
  const [sources, setSources] = useState<RegistrySource[]>([]);
  const [selected, setSelected] = useState<{ source: number; type: string } | null>(null);
  const [newType, setNewType] = useState("");
  const [message, setMessage] = useState<string | null>(null);
  const view = useUi((s) => s.docs[docId]);
  // Field forms with changes not saved yet ("type/field"), and what the user asked to do that
  // would drop them (run once they agree).
  const [unsaved, setUnsaved] = useState<string[]>([]);
  const [pending, setPending] = useState<(() => void) | null>(null);
  const markUnsaved = useCallback(
    (key: string, changed: boolean) =>
      setUnsaved((u) => (u.includes(key) === changed ? u : changed ? [...u, key] : u.filter((k) => k !== key))),
    [],
  );
  /** Runs `go` (close, another type) at once, or after the user agrees to drop unsaved edits. */
  const leave = (go: () => void) => (unsaved.length ? setPending(() => go) : go());

  const reload = useCallback(async () => {
    try {
      setSources(await backend().registrySources(docId));
    } catch (e) {
      setMessage(errorMessage(e));
    }
  }, [docId]);
  // The list follows the document's registries (changed here, by a fix, or outside).
  useEffect(() => void reload(), [reload, view?.registry]);

  const send = async (file: number | undefined, edit: RegistryEdit): Promise<boolean> => {
    try {
      const answer = await backend().editRegistry(docId, file, edit);
      ui.putDoc(answer.view);
      setMessage(answer.wrote ? `Saved ${answer.wrote}.` : null);
      await reload();
      return true;
    } catch (e) {
      setMessage(errorMessage(e));
      return false;
    }
  };
  const undo = async () => {
    try {
      const answer = await backend().undoRegistryEdit(docId);
      ui.putDoc(answer.view);
      setMessage(answer.wrote ? `Put back ${answer.wrote}.` : "Nothing to undo in the registries.");
      await reload();
    } catch (e) {
      setMessage(errorMessage(e));
    }
  };

  const projectIndex = sources.findIndex((s) => s.writable);
  const project = sources[projectIndex];
  const current = selected ? sources[selected.source]?.types.find((t) => t.type === selected.type) : undefined;
  const currentSource = selected ? sources[selected.source] : undefined;

  return (
    <div className="registry-editor" data-testid="registry-editor">
      <div className="panel-head">
        Registries
        <button className="link" data-testid="registry-undo" title="Undo the last registry change" onClick={() => void undo()}>
          Undo
        </button>
        <button className="link" data-testid="registry-editor-close" onClick={() => leave(onClose)} aria-label="close the editor">
          ×
        </button>
      </div>
      {pending && (
        <div className="inline-warning" role="alertdialog" aria-label="unsaved field changes" data-testid="registry-unsaved">
          {unsaved.length === 1 ? "A config field has" : `${unsaved.length} config fields have`} changes that are not saved (
          {unsaved.map((k) => k.replace("/", ".")).join(", ")}).{" "}
          <button
            type="button"
            data-testid="registry-discard"
            onClick={() => {
              const go = pending;
              setPending(null);
              setUnsaved([]);
              go();
            }}
          >
            Discard them
          </button>{" "}
          <button type="button" data-testid="registry-keep-editing" onClick={() => setPending(null)}>
            Keep editing
          </button>
        </div>
      )}
      {message && (
        <div className="inline-info" data-testid="registry-message">
          {message}
        </div>
      )}
      {project && (
        <div className="row">
          <input data-testid="registry-new-type" placeholder="new type name" value={newType} onChange={(e) => setNewType(e.target.value)} />
          <button
            data-testid="registry-create-type"
            onClick={async () => {
              const name = newType;
              if (await send(project.file ?? undefined, { op: "create_type", type: name })) {
                setNewType("");
                leave(() => setSelected({ source: projectIndex, type: name }));
              }
            }}
          >
            Create
          </button>
        </div>
      )}
      {sources.map((s, si) => (
        <div key={s.source} className="reg-source" data-testid="registry-source" data-writable={s.writable}>
          <div className="reg-cat" title={s.source}>
            {s.source === "built-in" ? "Built-in (read-only)" : s.source.split("/").pop()} <span className="muted">({s.types.length})</span>
          </div>
          {s.types.map((t) => (
            <div
              key={t.type}
              className={`reg-item${selected?.source === si && selected.type === t.type ? " open" : ""}`}
              data-testid={`registry-edit-type-${t.type}`}
              onClick={() => leave(() => setSelected({ source: si, type: t.type }))}
            >
              <span className="reg-title">{t.title || t.type}</span> <code className="reg-type">{t.type}</code>
            </div>
          ))}
        </div>
      ))}
      {current && currentSource && (
        <TypeEditor
          key={`${selected?.source}-${current.type}`}
          t={current}
          writable={currentSource.writable}
          send={(edit) => send(currentSource.file ?? undefined, edit)}
          copy={() => send(project?.file ?? undefined, { op: "copy_type", info: current })}
          renamed={(to) => setSelected({ source: selected?.source ?? 0, type: to })}
          deleted={() => setSelected(null)}
          markUnsaved={markUnsaved}
        />
      )}
    </div>
  );
}

function TypeEditor(props: {
  t: TypeInfo;
  writable: boolean;
  send: (e: RegistryEdit) => Promise<boolean>;
  copy: () => Promise<boolean>;
  renamed: (to: string) => void;
  deleted: () => void;
  markUnsaved: (key: string, changed: boolean) => void;
}) {
  const { t, writable, send, markUnsaved } = props;
  const [name, setName] = useState(t.type);
  const fields = fieldsOf(t);
  const text = (field: "title" | "category" | "description" | "docs", multi = false) => {
    const value = (t[field] as string | undefined) ?? "";
    const commit = (v: string) => v !== value && void send({ op: "set_text", type: t.type, field, value: v });
    return (
      <div className="field" key={field}>
        <label>{field}</label>
        {multi ? (
          <textarea
            data-testid={`type-${field}`}
            rows={5}
            defaultValue={value}
            disabled={!writable}
            onBlur={(e) => commit(e.target.value)}
          />
        ) : (
          <input
            data-testid={`type-${field}`}
            defaultValue={value}
            disabled={!writable}
            onBlur={(e) => commit(e.target.value)}
            onKeyDown={(e) => e.key === "Enter" && commit((e.target as HTMLInputElement).value)}
          />
        )}
      </div>
    );
  };
  return (
    <div className="type-editor" data-testid="type-editor" data-type={t.type}>
      <div className="field">
        <label>type</label>
        <input data-testid="type-name" value={name} disabled={!writable} onChange={(e) => setName(e.target.value)} />
        {writable && (
          <>
            <button
              data-testid="type-rename"
              disabled={name === t.type}
              onClick={async () => (await send({ op: "rename_type", from: t.type, to: name })) && props.renamed(name)}
            >
              Rename
            </button>
            <button
              className="danger"
              data-testid="type-delete"
              onClick={async () => (await send({ op: "delete_type", type: t.type })) && props.deleted()}
            >
              Delete
            </button>
          </>
        )}
        {!writable && (
          <button
            data-testid="type-copy"
            title="Copy into the project registry, where it overrides the built-in type"
            onClick={() => void props.copy()}
          >
            Copy to project registry
          </button>
        )}
      </div>
      {text("title")}
      {text("category")}
      {text("description")}
      {text("docs", true)}
      <div className="panel-sub">Config fields</div>
      {fields.map((f) => (
        <FieldEditor
          key={f.name}
          initial={f}
          writable={writable}
          save={(next) => send({ op: "set_field", type: t.type, previous: f.name, field: next })}
          remove={() => send({ op: "remove_field", type: t.type, name: f.name })}
          markUnsaved={(changed) => markUnsaved(`${t.type}/${f.name}`, changed)}
        />
      ))}
      {writable && (
        <FieldEditor
          key={`new-${fields.length}`}
          initial={{ name: "", json_type: "string", required: false, names_channel: false }}
          writable
          save={(next) => send({ op: "set_field", type: t.type, field: next })}
          markUnsaved={(changed) => markUnsaved(`${t.type}/(new field)`, changed)}
        />
      )}
    </div>
  );
}

/** JSON text -> value; undefined for an empty text; throws on bad JSON. */
function parseJson(text: string): unknown {
  return text.trim() === "" ? undefined : JSON.parse(text);
}

function FieldEditor(props: {
  initial: FieldForm;
  writable: boolean;
  save: (f: FieldForm) => Promise<boolean>;
  remove?: () => Promise<boolean>;
  /** Told whether the form holds changes not saved yet (and `false` when it goes away). */
  markUnsaved: (changed: boolean) => void;
}) {
  const { initial, writable, markUnsaved } = props;
  const isNew = !props.remove;
  const [f, setF] = useState<FieldForm>(initial);
  const [defText, setDefText] = useState(initial.default === undefined ? "" : JSON.stringify(initial.default));
  const [enumText, setEnumText] = useState(initial.enum_values ? JSON.stringify(initial.enum_values) : "");
  const [err, setErr] = useState<string | null>(null);
  // What the form held when it was shown or last saved: anything else is an unsaved change.
  const now = JSON.stringify([f, defText, enumText]);
  const [saved, setSaved] = useState(now);
  const changed = now !== saved;
  const tell = useRef(markUnsaved);
  tell.current = markUnsaved;
  useEffect(() => tell.current(changed), [changed]);
  useEffect(() => () => tell.current(false), []);
  const num = (v: string) => (v.trim() === "" ? undefined : Number(v));
  const prefix = isNew ? "field-new" : `field-${initial.name}`;
  const submit = async () => {
    let next: FieldForm;
    try {
      const enumValues = parseJson(enumText);
      if (enumValues !== undefined && !Array.isArray(enumValues)) throw new Error('the allowed values are a JSON list, like ["a", "b"]');
      next = { ...f, default: parseJson(defText), enum_values: enumValues as unknown[] | undefined };
    } catch (e) {
      setErr(`Not saved: ${(e as Error).message}`);
      return;
    }
    if (Number.isNaN(next.minimum) || Number.isNaN(next.maximum)) return setErr("Not saved: minimum and maximum are numbers.");
    setErr(null);
    if (!(await props.save(next))) return;
    if (isNew) {
      setF(initial);
      setDefText("");
      setEnumText("");
      setSaved(JSON.stringify([initial, "", ""]));
    } else setSaved(now);
  };
  return (
    <div className={`field-editor${isNew ? " new" : ""}`} data-testid={isNew ? "field-new" : "field-row"} data-field={initial.name}>
      <input
        data-testid={`${prefix}-name`}
        placeholder="field name"
        value={f.name}
        disabled={!writable}
        onChange={(e) => setF({ ...f, name: e.target.value })}
      />
      <select
        data-testid={`${prefix}-type`}
        value={f.json_type}
        disabled={!writable}
        onChange={(e) => setF({ ...f, json_type: e.target.value })}
      >
        {JSON_TYPES.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
      <label>
        <input
          type="checkbox"
          data-testid={`${prefix}-required`}
          checked={f.required}
          disabled={!writable}
          onChange={(e) => setF({ ...f, required: e.target.checked })}
        />{" "}
        required
      </label>
      <label>
        <input
          type="checkbox"
          data-testid={`${prefix}-channel`}
          checked={f.names_channel}
          disabled={!writable}
          onChange={(e) => setF({ ...f, names_channel: e.target.checked })}
        />{" "}
        names a channel
      </label>
      <input
        data-testid={`${prefix}-min`}
        placeholder="minimum"
        value={f.minimum ?? ""}
        disabled={!writable}
        onChange={(e) => setF({ ...f, minimum: num(e.target.value) })}
      />
      <input
        data-testid={`${prefix}-max`}
        placeholder="maximum"
        value={f.maximum ?? ""}
        disabled={!writable}
        onChange={(e) => setF({ ...f, maximum: num(e.target.value) })}
      />
      <input
        data-testid={`${prefix}-pattern`}
        placeholder="pattern"
        value={f.pattern ?? ""}
        disabled={!writable}
        onChange={(e) => setF({ ...f, pattern: e.target.value || undefined })}
      />
      <input
        data-testid={`${prefix}-default`}
        placeholder="default (JSON)"
        value={defText}
        disabled={!writable}
        onChange={(e) => setDefText(e.target.value)}
      />
      <input
        data-testid={`${prefix}-enum`}
        placeholder="allowed values (JSON list)"
        value={enumText}
        disabled={!writable}
        onChange={(e) => setEnumText(e.target.value)}
      />
      <input
        data-testid={`${prefix}-description`}
        placeholder="description"
        value={f.description ?? ""}
        disabled={!writable}
        onChange={(e) => setF({ ...f, description: e.target.value || undefined })}
      />
      {writable && (
        <button data-testid={`${prefix}-save`} onClick={() => void submit()}>
          {isNew ? "Add field" : "Save"}
        </button>
      )}
      {writable && props.remove && (
        <button className="danger" data-testid={`${prefix}-remove`} onClick={() => void props.remove?.()}>
          Remove
        </button>
      )}
      {err && <div className="inline-error">{err}</div>}
    </div>
  );
}
