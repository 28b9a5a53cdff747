// The fake backend's validator: a small stand-in for `validate::validate` in crates/spec, with
// the same codes and element shapes, so the problems panel and badges can be developed and
// tested without Rust. The app never uses it.
import type { Diagnostic, GraphSpec, TypeInfo } from "../bindings";
import { END, START } from "../lib/ids";
import { fakeOperator } from "./fakeLabels";

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const esc = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");

function typeMatches(t: string, v: unknown): boolean {
  switch (t) {
    case "string":
      return typeof v === "string";
    case "number":
      return typeof v === "number";
    case "integer":
      return typeof v === "number" && Number.isInteger(v);
    case "boolean":
      return typeof v === "boolean";
    case "array":
      return Array.isArray(v);
    case "object":
      return isObj(v);
    case "null":
      return v === null;
    default:
      return true;
  }
}

function checkValue(id: string, field: string, schema: Record<string, unknown>, v: unknown, pointer: string, out: Diagnostic[]) {
  const err = (message: string) =>
    out.push({ code: "registry/config-invalid", severity: "error", message, pointer, element: { kind: "node", id } });
  if (typeof schema.type === "string" && !typeMatches(schema.type, v))
    return err(`node "${id}": config field "${field}" must be ${schema.type === "integer" ? "an integer" : `a ${schema.type}`}.`);
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(v)))
    return err(`node "${id}": config field "${field}" must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(", ")}.`);
  if (typeof v === "number") {
    if (typeof schema.minimum === "number" && v < schema.minimum)
      return err(`node "${id}": config field "${field}" must be at least ${schema.minimum}.`);
    if (typeof schema.maximum === "number" && v > schema.maximum)
      return err(`node "${id}": config field "${field}" must be at most ${schema.maximum}.`);
  }
  if (typeof v === "string" && typeof schema.minLength === "number" && v.length < schema.minLength)
    return err(`node "${id}": config field "${field}" must not be empty.`);
  const items = schema.items;
  if (Array.isArray(v) && isObj(items) && typeof items.type === "string") {
    const it = items.type;
    v.forEach((item, i) => {
      if (!typeMatches(it, item)) err(`node "${id}": config field "${field}" item ${i} must be a ${it}.`);
    });
  }
}

export function fakeValidate(spec: GraphSpec, registry: TypeInfo[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  const types = new Map(registry.map((t) => [t.type, t]));
  const ids = new Set<string>();
  for (const [name] of Object.entries(spec.channels)) {
    if (!name)
      out.push({
        code: "spec/empty-channel-name",
        severity: "error",
        message: 'channel name must be a non-empty string, got ""',
        pointer: "/channels/",
        element: { kind: "channel", name },
      });
  }
  spec.nodes.forEach((n, i) => {
    const at = `/nodes/${i}`;
    if (!n.id)
      out.push({
        code: "spec/invalid-node-id",
        severity: "error",
        message: 'node name must be a non-empty string, got ""',
        pointer: `${at}/id`,
      });
    else if (n.id === START || n.id === END)
      out.push({
        code: "spec/reserved-node-id",
        severity: "error",
        message: `"${n.id}" is reserved and implicit`,
        pointer: `${at}/id`,
        element: { kind: "node", id: n.id },
      });
    else if (ids.has(n.id))
      out.push({
        code: "spec/duplicate-node",
        severity: "error",
        message: `duplicate node "${n.id}"`,
        pointer: `${at}/id`,
        element: { kind: "node", id: n.id },
      });
    ids.add(n.id);
    if (!n.type) {
      out.push({
        code: "spec/missing-type",
        severity: "error",
        message: `node "${n.id}" has no "type" — a stored graph resolves behaviour through the registry, so every node needs one.`,
        pointer: at,
        element: { kind: "node", id: n.id },
      });
      return;
    }
    const t = types.get(n.type);
    if (!t) {
      out.push({
        code: "spec/unknown-type",
        severity: "error",
        message: `node "${n.id}" has type "${n.type}", which is not in the registry. Known types: [${[...types.keys()].map((k) => `"${k}"`).join(", ")}]`,
        pointer: `${at}/type`,
        element: { kind: "node", id: n.id },
      });
      return;
    }
    const schema = t.config_schema;
    if (!isObj(schema)) return;
    const props = isObj(schema.properties) ? schema.properties : {};
    for (const r of Array.isArray(schema.required) ? (schema.required as string[]) : []) {
      if (!(r in n.config))
        out.push({
          code: "registry/config-invalid",
          severity: "error",
          message: `node "${n.id}": config field "${r}" is required.`,
          pointer: `${at}/config`,
          element: { kind: "node", id: n.id },
        });
    }
    for (const [k, v] of Object.entries(n.config)) {
      const p = `${at}/config/${esc(k)}`;
      const s = props[k];
      if (!isObj(s)) {
        if (schema.additionalProperties === false)
          out.push({
            code: "registry/config-unknown-field",
            severity: "warning",
            message: `node "${n.id}": config field "${k}" is not known to type "${n.type}".`,
            pointer: p,
            element: { kind: "node", id: n.id },
          });
        continue;
      }
      checkValue(n.id, k, s, v, p, out);
    }
  });
  let entry = false;
  spec.edges.forEach((e, index) => {
    const at = `/edges/${index}`;
    const element = { kind: "edge" as const, index, from: e.from, to: e.to };
    if (e.from === START) entry = true;
    if (e.from !== START && !ids.has(e.from))
      out.push({
        code: "spec/unknown-edge-source",
        severity: "error",
        message: `edge from unknown node "${e.from}"`,
        pointer: `${at}/from`,
        element,
      });
    if (e.to !== END && !ids.has(e.to))
      out.push({
        code: "spec/unknown-edge-target",
        severity: "error",
        message: `edge "${e.from}" -> unknown node "${e.to}"`,
        pointer: `${at}/to`,
        element,
      });
    if (e.when) {
      if (typeof e.when.channel !== "string")
        out.push({
          code: "spec/malformed-predicate",
          severity: "error",
          message: `predicate ${JSON.stringify(e.when)} is malformed — expected an object with a "channel" key, e.g. { channel: "intent", eq: "buy" }.`,
          pointer: `${at}/when`,
          element,
        });
      else if (!(e.when.channel in spec.channels))
        out.push({
          code: "spec/undeclared-channel",
          severity: "error",
          message: `predicate references channel "${e.when.channel}", which this spec does not declare. Declared: [${Object.keys(
            spec.channels,
          )
            .map((c) => `"${c}"`)
            .join(", ")}]`,
          pointer: `${at}/when/channel`,
          element,
        });
      else if (!fakeOperator(e.when))
        out.push({
          code: "spec/no-operator",
          severity: "error",
          message: `predicate on channel "${e.when.channel}" has no known operator: ${JSON.stringify(e.when)}. Supported: eq, neq, in, gt, lt, truthy.`,
          pointer: `${at}/when`,
          element,
        });
    }
  });
  if (!entry)
    out.push({
      code: "spec/no-entry-edge",
      severity: "error",
      message: 'graph has no entry edge — add .edge(START, "someNode")',
      pointer: "/edges",
      element: { kind: "graph" },
    });
  return out;
}
