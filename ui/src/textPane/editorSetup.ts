// The editor of the text pane: CodeMirror 6 with the format's language (JSON, or YAML front
// matter over Markdown for GRAPH.md), its own search, folding, bracket matching and multiple
// cursors, the problems underlined, completions, and the collab extension that keeps it in step
// with Rust. It has no undo history of its own: undo and redo are the document's (Rust's), so
// one history holds the canvas's edits and the typing.
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from "@codemirror/autocomplete";
import { collab } from "@codemirror/collab";
import { defaultKeymap, indentWithTab } from "@codemirror/commands";
import { json } from "@codemirror/lang-json";
import { markdown } from "@codemirror/lang-markdown";
import { yamlFrontmatter } from "@codemirror/lang-yaml";
import { bracketMatching, foldGutter, foldKeymap, HighlightStyle, indentOnInput, syntaxHighlighting } from "@codemirror/language";
import { lintGutter, lintKeymap } from "@codemirror/lint";
import { highlightSelectionMatches, search, searchKeymap } from "@codemirror/search";
import { EditorState, type Extension } from "@codemirror/state";
import {
  crosshairCursor,
  drawSelection,
  dropCursor,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  type KeyBinding,
  keymap,
  lineNumbers,
  rectangularSelection,
  type ViewUpdate,
} from "@codemirror/view";
import type { CompletionSource } from "@codemirror/autocomplete";
import { tags as t } from "@lezer/highlight";
import type { DocFormat } from "../bindings";
import { elementHighlight } from "./highlight";

export type SetupOptions = {
  format: DocFormat;
  version: number;
  clientID: string;
  readOnly: boolean;
  /** "\r\n" for a text written with Windows line breaks. */
  lineSeparator?: string;
  completions: CompletionSource;
  /** Keys that do the document's own thing (undo, redo, save). */
  keys: readonly KeyBinding[];
  onUpdate: (u: ViewUpdate) => void;
};

/** Colours from the app's theme (textPane.css), so the text reads in light and dark alike. */
const highlight = HighlightStyle.define([
  { tag: t.propertyName, color: "var(--syn-key)" },
  { tag: [t.string, t.special(t.string)], color: "var(--syn-string)" },
  { tag: [t.number, t.bool, t.null], color: "var(--syn-number)" },
  { tag: [t.keyword, t.definitionKeyword, t.meta, t.processingInstruction], color: "var(--syn-keyword)" },
  { tag: [t.heading], color: "var(--syn-keyword)", fontWeight: "600" },
  { tag: [t.comment, t.quote], color: "var(--muted)", fontStyle: "italic" },
  { tag: [t.link, t.url], color: "var(--link)", textDecoration: "underline" },
  { tag: t.emphasis, fontStyle: "italic" },
  { tag: t.strong, fontWeight: "600" },
  { tag: t.invalid, color: "var(--error)" },
]);

function language(format: DocFormat): Extension {
  return format === "graphmd" ? yamlFrontmatter({ content: markdown() }) : json();
}

export function extensions(o: SetupOptions): Extension[] {
  return [
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightSpecialChars(),
    foldGutter(),
    drawSelection(),
    dropCursor(),
    EditorState.allowMultipleSelections.of(true),
    indentOnInput(),
    syntaxHighlighting(highlight),
    bracketMatching(),
    closeBrackets(),
    autocompletion({ override: [o.completions], activateOnTyping: true }),
    rectangularSelection(),
    crosshairCursor(),
    highlightActiveLine(),
    highlightSelectionMatches(),
    search({ top: true }),
    lintGutter(),
    language(o.format),
    elementHighlight,
    collab({ startVersion: o.version, clientID: o.clientID }),
    ...(o.lineSeparator ? [EditorState.lineSeparator.of(o.lineSeparator)] : []),
    ...(o.readOnly ? [EditorState.readOnly.of(true)] : []),
    keymap.of([
      ...o.keys,
      ...closeBracketsKeymap,
      ...defaultKeymap,
      ...searchKeymap,
      ...foldKeymap,
      ...completionKeymap,
      ...lintKeymap,
      indentWithTab,
    ]),
    EditorView.updateListener.of(o.onUpdate),
    EditorView.contentAttributes.of({ "aria-label": "The document's text", "data-testid": "text-pane-content" }),
  ];
}
