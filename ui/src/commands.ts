// Every command of the app, the one list: the help overlay (F1, ?) and the command palette
// (Ctrl+Shift+P, Ctrl+K) are both made from it, so neither misses one. `keys` is what the user
// presses, shown as is; `actionFor` (shortcuts.ts) and the native menu (src-tauri/src/menu.rs)
// are what make those keys work, and a test checks each row against them. Rows without an
// `action` are gestures (they have a key but nothing to run from the palette).

export const IS_MAC = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
export const MOD = IS_MAC ? "⌘" : "Ctrl";

export type Command = {
  /** What `runAction` runs; absent for gestures (drag, click) the palette cannot run. */
  action?: string;
  label: string;
  group: "File" | "Edit" | "Selection" | "View" | "Keyboard" | "Help";
  /** The keys as shown; absent when the command has none (palette and menu only). */
  keys?: string;
  /** The keys are a native menu accelerator (menu.rs), not handled by the webview. */
  menuKeys?: boolean;
  /** Words the palette also matches (`close tab` finds Close). */
  also?: string;
  /** The keys work while the canvas has the keyboard focus (keyboard/keyboardNav.ts). */
  scope?: "canvas";
};

const m = (k: string) => `${MOD}+${k}`;

export const COMMANDS: readonly Command[] = [
  { action: "new", label: "New document", group: "File", keys: m("N") },
  { action: "new-example", label: "New from example", group: "File" },
  { action: "open", label: "Open…", group: "File", keys: m("O") },
  { action: "save", label: "Save", group: "File", keys: m("S") },
  { action: "save-as", label: "Save as…", group: "File", keys: m("Shift+S") },
  { action: "close", label: "Close document", group: "File", keys: m("W"), menuKeys: true, also: "tab" },
  { action: "import", label: "Import…", group: "File", also: "convert" },
  { action: "export-graphspec", label: "Export as GraphSpec…", group: "File" },
  { action: "export-weaveflow", label: "Export as Weaveflow…", group: "File" },
  { action: "export-graphmd", label: "Export as GRAPH.md…", group: "File" },
  { action: "export-image", label: "Export image (SVG or PNG)…", group: "File", also: "picture png svg screenshot" },
  { action: "compare-with", label: "Compare with a Git revision or another file…", group: "File", also: "diff history branch commit" },
  { action: "compare-file", label: "Compare with another file…", group: "File", also: "diff" },
  { action: "open-run", label: "Open a run of this graph…", group: "File", also: "trace replay ilmek weaveflow langsmith otlp" },
  { action: "compare-run", label: "Compare with another run…", group: "File", also: "trace diff replay" },
  { action: "open-runs-folder", label: "Open a folder of runs (heat map)…", group: "File", also: "traces aggregate dead branches" },
  { action: "simulate", label: "Simulate the graph (step through, breakpoints)…", group: "File", also: "run debug mock" },
  { action: "quit", label: "Quit", group: "File", keys: m("Q"), menuKeys: true, also: "exit" },

  { action: "undo", label: "Undo", group: "Edit", keys: m("Z") },
  { action: "redo", label: "Redo", group: "Edit", keys: IS_MAC ? "⌘+Shift+Z" : "Ctrl+Y / Ctrl+Shift+Z" },
  { action: "cut", label: "Cut (as GraphSpec JSON)", group: "Edit", keys: m("X") },
  { action: "copy", label: "Copy (as GraphSpec JSON)", group: "Edit", keys: m("C") },
  { action: "paste", label: "Paste (clashing ids get fresh ones)", group: "Edit", keys: m("V") },
  { action: "duplicate", label: "Duplicate", group: "Edit", keys: m("D") },
  {
    action: "delete",
    label: "Delete the focused or selected elements",
    group: "Edit",
    keys: IS_MAC ? "⌫ / Delete" : "Delete / Backspace",
    also: "remove",
  },

  { action: "select-all", label: "Select all", group: "Selection", keys: m("A") },
  { label: "Box select", group: "Selection", keys: "Shift+drag" },
  { label: "Add to / remove from selection", group: "Selection", keys: `${MOD}+click` },
  { action: "escape", label: "Clear selection, close overlays", group: "Selection", keys: "Esc" },

  { action: "find", label: "Find nodes, config values, conditions, channels, problems", group: "View", keys: m("F"), also: "search" },
  { action: "palette", label: "Command palette", group: "View", keys: `${m("Shift+P")} / ${m("K")}`, also: "commands" },
  { action: "auto-layout", label: "Automatic layout", group: "View", keys: m("Shift+L") },
  { action: "fit-view", label: "Fit the graph in view", group: "View", keys: "F" },
  { action: "zoom-in", label: "Zoom in", group: "View", keys: "+" },
  { action: "zoom-out", label: "Zoom out", group: "View", keys: "−" },
  { action: "focus-search", label: "Search node types (to add one)", group: "View", keys: "/", also: "registry add node" },
  { label: "Add the highlighted type at the centre", group: "View", keys: "Enter (in type search)" },
  { action: "toggle-problems", label: "Show or hide the problems panel", group: "View", also: "errors warnings" },
  {
    action: "toggle-text",
    label: "Show or hide the document's text beside the canvas",
    group: "View",
    keys: m("E"),
    also: "json yaml source code editor",
  },
  { action: "toggle-theme", label: "Toggle light / dark theme", group: "View" },
  { action: "compare-close", label: "Leave the compare view", group: "View", also: "diff done" },
  { action: "next-tab", label: "Next document tab", group: "View", keys: "Ctrl+Tab / Ctrl+PageDown", also: "switch document" },
  { action: "prev-tab", label: "Previous document tab", group: "View", keys: "Ctrl+Shift+Tab / Ctrl+PageUp", also: "switch document" },
  { action: "run-close", label: "Close the run", group: "View", also: "trace replay done" },

  {
    action: "focus-canvas",
    label: "Focus the canvas (to work on the graph with the keyboard)",
    group: "Keyboard",
    keys: "F6",
    also: "keyboard",
  },
  { label: "Move the focus to the nearest node that way", group: "Keyboard", keys: "←/→/↑/↓", scope: "canvas" },
  { label: "Follow the edges (→ successor, ← back, ↓/↑ siblings)", group: "Keyboard", keys: `${MOD}+←/→/↑/↓`, scope: "canvas" },
  { label: "Focus the next edge leaving the focused node", group: "Keyboard", keys: "E", scope: "canvas" },
  {
    label: "Inspect the focused node or edge (select it, keys go to the inspector); a subgraph node opens its graph",
    group: "Keyboard",
    keys: "Enter",
    scope: "canvas",
  },
  { label: "Inspect the focused node, a subgraph node too", group: "Keyboard", keys: "Shift+Enter", scope: "canvas" },
  { label: "Add the focused node to / remove it from the selection", group: "Keyboard", keys: "Space", scope: "canvas" },
  { label: "Move the selection (or the focused node); Shift: further", group: "Keyboard", keys: "Alt+←/→/↑/↓", scope: "canvas" },
  { label: "Connect the focused node to a node you name", group: "Keyboard", keys: "C", scope: "canvas" },

  { label: "Open a subgraph node's graph in a tab", group: "View", keys: "Double-click" },
  { action: "open-subgraph", label: "Open the selected subgraph node's graph (in a tab)", group: "View", also: "subgraph child reference" },
  { action: "subgraph-parent", label: "Back to the parent graph (breadcrumb)", group: "View", also: "subgraph up" },
  { action: "help", label: "Keyboard shortcuts (this help)", group: "Help", keys: "? / F1" },
  { action: "about", label: "About Trellis (version, commit, licence)", group: "Help", also: "version bug report" },
  { action: "open-log-folder", label: "Open the log folder", group: "Help", also: "logs bug report" },

  // Notes and groups (docs/notes-and-groups.md).
  { action: "add-note", label: "Add a note (Markdown; double-click it to edit)", group: "Edit", also: "sticky comment annotation" },
  { action: "group-selection", label: "Group the selected nodes and notes", group: "Edit", keys: m("G"), also: "frame" },
  { action: "ungroup", label: "Ungroup the selected group", group: "Edit", also: "frame" },
  { action: "toggle-collapse", label: "Collapse or expand the selected group", group: "Edit", also: "fold group" },
];

/** The commands the palette offers: everything that can run. */
export const PALETTE_COMMANDS: readonly Command[] = COMMANDS.filter((c) => c.action);

/** The rows of the help overlay: everything with keys. */
export const HELP_ROWS: readonly Command[] = COMMANDS.filter((c) => c.keys);
