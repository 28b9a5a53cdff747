// HAND-WRITTEN until ts-rs exports these from crates/doc and src-tauri (see README.md).
// Shapes follow ui/API.md, the contract agreed with the Rust side.
import type { Diagnostic } from "./Diagnostic";
import type { TypeInfo } from "./TypeInfo";
import type { GraphMdAnalysis } from "./GraphMdAnalysis";
import type { GraphMdTopology } from "./GraphMdTopology";

export type Reducer = "last_write" | "append" | "merge";

/** A declarative edge guard: exactly one channel, the first operator present wins. */
export type Predicate = {
  channel: string;
  eq?: unknown;
  neq?: unknown;
  in?: unknown[];
  gt?: number;
  lt?: number;
  truthy?: boolean;
  [other: string]: unknown;
};

export type ChannelSpec = { reducer: Reducer | string };
export type NodeSpec = { id: string; type?: string | null; config: Record<string, unknown> };
export type EdgeSpec = { from: string; to: string; when?: Predicate };

export type GraphSpec = {
  name: string | null;
  channels: Record<string, ChannelSpec>;
  nodes: NodeSpec[];
  edges: EdgeSpec[];
};

export type Point = { x: number; y: number };
export type Viewport = { x: number; y: number; zoom: number };
export type Layout = { positions: Record<string, Point>; viewport?: Viewport | null };

export type DocumentFormat = "graphspec" | "weaveflow" | "graphmd" | string;

export type Notice = { level: "info" | "warning" | "error" | string; message: string; code?: string };

/** The file changed on disk while the document had unsaved changes. */
export type Conflict = { mine: string; theirs: string; theirs_fingerprint?: unknown };
export type ConflictChoice = "keep_mine" | "take_theirs";

export type DocumentView = {
  id: string;
  path: string | null;
  fileName: string;
  format: DocumentFormat;
  dirty: boolean;
  spec: GraphSpec;
  layout: Layout;
  diagnostics: Diagnostic[];
  registry: TypeInfo[];
  canUndo: boolean;
  canRedo: boolean;
  notices: Notice[];
  /** No layout file was found: the UI lays the graph out (`apply_layout` automatic). */
  layoutMissing: boolean;
  conflict: Conflict | null;
  /** Weaveflow documents (crates/doc `formats::view::WeaveflowView`). */
  weaveflow?: WeaveflowView | null;
  /** GRAPH.md documents (crates/doc `formats::view::GraphMdView`). */
  graphmd?: GraphMdView | null;
};

/** Mirrors crates/doc/src/formats/view.rs (serde camelCase). */
export type WeaveflowView = { definition: Record<string, unknown>; entryPoint: string; finishPoint: string };
export type GraphMdView = { front: Record<string, unknown>; body: string; topology: GraphMdTopology; analysis: GraphMdAnalysis };

/** One edit operation, tagged by `op`. Every edit is one undo step in Rust. */
export type Edit =
  | { op: "add_node"; id?: string; type: string; config?: Record<string, unknown>; position: Point }
  | { op: "remove_nodes"; ids: string[] }
  | { op: "rename_node"; from: string; to: string }
  | { op: "set_node_type"; id: string; type: string }
  | { op: "set_config_field"; id: string; path: string; value?: unknown }
  | { op: "set_config"; id: string; config: Record<string, unknown> }
  | { op: "connect"; from: string; to: string; when?: Predicate }
  | { op: "disconnect"; index: number }
  | { op: "set_when"; index: number; when?: Predicate }
  | { op: "add_channel"; name: string; reducer: Reducer }
  | { op: "rename_channel"; from: string; to: string }
  | { op: "remove_channel"; name: string }
  | { op: "set_reducer"; name: string; reducer: Reducer }
  | { op: "rename_graph"; name: string | null }
  | { op: "move_nodes"; positions: Record<string, Point> }
  | { op: "paste"; fragment: GraphSpec; at?: Point }
  | { op: "apply_layout"; positions: Record<string, Point>; automatic?: boolean }
  | { op: "set_viewport"; viewport: Viewport }
  // Weaveflow and GRAPH.md (crates/doc formats/): a field of a node, an edge, the document;
  // `value` absent removes the field.
  | { op: "set_node_field"; id: string; field: string; value?: unknown }
  | { op: "set_edge_field"; index: number; field: string; value?: unknown }
  | { op: "set_body"; text: string }
  | { op: "set_doc_field"; field: string; value?: unknown };

/** What Save answers: the document as it is now, and whether bytes were written. */
export type SaveOutcome = { saved: boolean; view: DocumentView; diagnostics: Diagnostic[]; conflict?: boolean };

export type DocumentSummary = { id: string; fileName: string; dirty: boolean };
