// A small form generated from a type's config JSON Schema. It covers what registry types use:
// string (enum, multi-line, url), number and integer with minimum/maximum, boolean, arrays of
// strings, objects of strings; anything else is edited as JSON. No ajv: it compiles schemas
// with `new Function`, which the app's CSP forbids; validity is decided by Rust anyway, and its
// diagnostics are shown inline next to the field their pointer names.

export type FieldKind = "string" | "text" | "enum" | "number" | "integer" | "boolean" | "string-list" | "string-map" | "json";

export type FieldDef = {
  name: string;
  kind: FieldKind;
  title: string;
  description?: string;
  required: boolean;
  minimum?: number;
  maximum?: number;
  enumValues?: unknown[];
  default?: unknown;
  format?: string;
  /** A name the host resolves when it builds the graph (`x-trellis-host-resolved`): free text
   * the editor cannot check, which the form says. */
  hostResolved?: boolean;
  schema: Record<string, unknown>;
};

type Schema = Record<string, unknown>;
const isObj = (v: unknown): v is Schema => typeof v === "object" && v !== null && !Array.isArray(v);

function typeOf(s: Schema): string | undefined {
  const t = s.type;
  if (typeof t === "string") return t;
  if (Array.isArray(t)) return t.find((x) => x !== "null") as string | undefined;
  if (Array.isArray(s.enum)) return "enum";
  if ("const" in s) return "enum";
  return undefined;
}

/** The JSON type of a value, as a schema `type` names it. */
function typeOfValue(v: unknown): string | undefined {
  if (typeof v === "boolean") return "boolean";
  if (typeof v === "number") return "number";
  if (typeof v === "string") return "string";
  if (Array.isArray(v)) return "array";
  if (isObj(v)) return "object";
  return undefined;
}

/** A field whose schema leaves its type open (a runtime that takes any value and ignores the
 * ones it cannot use) is edited as the type of its `default` or first example; a channel name
 * is text. */
function loosely(s: Schema): Schema {
  if (typeOf(s) !== undefined) return s;
  const examples = Array.isArray(s.examples) ? s.examples : [];
  const t = typeOfValue(s.default) ?? typeOfValue(examples[0]) ?? (s["x-trellis-channel"] === true ? "string" : undefined);
  return t ? { ...s, type: t } : s;
}

const LONG_TEXT = /prompt|template|system|body|instructions|question|docs|description|message|text/i;

export function kindOf(name: string, schema: Schema): FieldKind {
  const s = loosely(schema);
  if (Array.isArray(s.enum)) return "enum";
  const t = typeOf(s);
  switch (t) {
    case "string":
      if (s.format === "textarea" || (typeof s.maxLength === "number" && s.maxLength > 200) || LONG_TEXT.test(name)) return "text";
      return "string";
    case "number":
      return "number";
    case "integer":
      return "integer";
    case "boolean":
      return "boolean";
    case "array": {
      const items = isObj(s.items) ? s.items : {};
      return typeOf(items) === "string" && !Array.isArray(items.enum) ? "string-list" : "json";
    }
    case "object": {
      const ap = s.additionalProperties;
      const props = isObj(s.properties) ? Object.keys(s.properties).length : 0;
      if (props === 0 && isObj(ap) && typeOf(ap) === "string") return "string-map";
      return "json";
    }
    default:
      return "json";
  }
}

export function fieldsFromSchema(schema: unknown): FieldDef[] {
  if (!isObj(schema) || !isObj(schema.properties)) return [];
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(schema.properties).map(([name, raw]) => {
    const s = isObj(raw) ? raw : {};
    const min = typeof s.minimum === "number" ? s.minimum : typeof s.exclusiveMinimum === "number" ? s.exclusiveMinimum : undefined;
    const max = typeof s.maximum === "number" ? s.maximum : typeof s.exclusiveMaximum === "number" ? s.exclusiveMaximum : undefined;
    return {
      name,
      kind: kindOf(name, s),
      title: typeof s.title === "string" ? s.title : name,
      description: typeof s.description === "string" ? s.description : undefined,
      required: required.has(name),
      minimum: min,
      maximum: max,
      enumValues: Array.isArray(s.enum) ? s.enum : "const" in s ? [s.const] : undefined,
      default: s.default,
      format: typeof s.format === "string" ? s.format : undefined,
      hostResolved: s["x-trellis-host-resolved"] === true,
      schema: s,
    };
  });
}

/** Fields present in a config that the schema does not describe (shown as JSON rows, and
 * named in the warning when the node's type changes). */
export function unknownFields(config: Record<string, unknown>, schema: unknown): string[] {
  if (!isObj(schema) || !isObj(schema.properties)) return [];
  const known = new Set(Object.keys(schema.properties));
  return Object.keys(config).filter((k) => !known.has(k));
}

/** `remove`: the field is to be deleted from the config (an emptied optional input). */
export type Coerced = { ok: true; value: unknown } | { ok: true; remove: true } | { ok: false; error: string };

/** Turns what the user typed into the value to store, or says why it cannot be one. Range
 * limits are not enforced here (Rust reports them), only what cannot be a value at all. */
export function coerce(f: Pick<FieldDef, "kind" | "enumValues">, raw: string | boolean): Coerced {
  if (typeof raw === "boolean") return { ok: true, value: raw };
  switch (f.kind) {
    case "string":
    case "text":
      return { ok: true, value: raw };
    case "enum": {
      if (raw === "") return { ok: true, remove: true };
      const hit = (f.enumValues ?? []).find((v) => jsonKey(v) === raw);
      return hit === undefined && raw !== jsonKey(undefined)
        ? { ok: false, error: "Choose one of the listed values." }
        : { ok: true, value: hit };
    }
    case "number":
    case "integer": {
      const s = raw.trim();
      if (s === "") return { ok: true, remove: true };
      const n = Number(s);
      if (!Number.isFinite(n)) return { ok: false, error: "Enter a number." };
      if (f.kind === "integer" && !Number.isInteger(n)) return { ok: false, error: "Enter a whole number." };
      return { ok: true, value: n };
    }
    case "boolean":
      return raw === "true" ? { ok: true, value: true } : raw === "false" ? { ok: true, value: false } : { ok: true, remove: true };
    case "string-list": {
      const items = raw
        .split("\n")
        .map((x) => x.trim())
        .filter((x) => x !== "");
      return { ok: true, value: items };
    }
    case "string-map": {
      const out: Record<string, string> = {};
      for (const [i, line] of raw.split("\n").entries()) {
        if (!line.trim()) continue;
        const at = line.indexOf(":");
        if (at <= 0) return { ok: false, error: `Line ${i + 1}: write "key: value".` };
        const k = line.slice(0, at).trim();
        if (k in out) return { ok: false, error: `Line ${i + 1}: "${k}" is given twice.` };
        out[k] = line.slice(at + 1).trim();
      }
      return { ok: true, value: out };
    }
    case "json": {
      if (raw.trim() === "") return { ok: true, remove: true };
      try {
        return { ok: true, value: JSON.parse(raw) };
      } catch (e) {
        return { ok: false, error: `Not JSON: ${(e as Error).message}` };
      }
    }
  }
}

/** The text an input shows for a stored value (the inverse of `coerce`). */
export function display(f: Pick<FieldDef, "kind">, v: unknown): string {
  if (v === undefined) return "";
  switch (f.kind) {
    case "string":
    case "text":
      return typeof v === "string" ? v : JSON.stringify(v);
    case "enum":
      return jsonKey(v);
    case "number":
    case "integer":
      return typeof v === "number" ? String(v) : JSON.stringify(v);
    case "boolean":
      return v === true ? "true" : v === false ? "false" : "";
    case "string-list":
      return Array.isArray(v) ? v.map((x) => (typeof x === "string" ? x : JSON.stringify(x))).join("\n") : JSON.stringify(v);
    case "string-map":
      return isObj(v)
        ? Object.entries(v)
            .map(([k, x]) => `${k}: ${typeof x === "string" ? x : JSON.stringify(x)}`)
            .join("\n")
        : JSON.stringify(v);
    case "json":
      return JSON.stringify(v, null, 2);
  }
}

/** Enum options are compared by their JSON text, so `1` and `"1"` stay distinct. */
export function jsonKey(v: unknown): string {
  return v === undefined ? "" : JSON.stringify(v);
}

/** RFC 6901 escaping of one segment. */
export function pointerSegment(s: string): string {
  return s.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** The config field a diagnostic pointer names (`/nodes/3/config/temperature/0` -> `temperature`). */
export function configFieldOf(pointer: string, nodeIndex: number): string | null | undefined {
  const base = `/nodes/${nodeIndex}/config`;
  if (pointer === base) return null; // the whole config
  if (!pointer.startsWith(`${base}/`)) return undefined;
  const seg = pointer.slice(base.length + 1).split("/")[0];
  return seg.replace(/~1/g, "/").replace(/~0/g, "~");
}
