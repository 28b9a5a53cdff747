// Keyboard shortcuts, following the platform (Cmd on macOS, Ctrl elsewhere), and the table the
// help overlay shows. Clipboard keys go through the DOM copy/cut/paste events, which carry the
// system clipboard without any permission; a timer falls back to the async clipboard API.
import { copy, paste, runAction, selectionFragmentText } from "./actions";
import { HELP_ROWS, IS_MAC } from "./commands";

export { IS_MAC, MOD } from "./commands";

export type Shortcut = { keys: string; action: string; label: string; group: string };

/** The help overlay's rows, from the one list of commands (commands.ts). */
export const SHORTCUTS: Shortcut[] = HELP_ROWS.map((c) => ({
  keys: c.keys ?? "",
  action: c.action ?? c.label,
  label: c.label,
  group: c.group,
}));

export function isEditable(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  if (!el?.tagName) return false;
  const tag = el.tagName;
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || el.isContentEditable;
}

/** The action a key press means, or null. Exported for tests. */
export function actionFor(e: Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey" | "shiftKey" | "altKey">, mac = IS_MAC): string | null {
  const mod = mac ? e.metaKey : e.ctrlKey;
  const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  // Document tabs: Ctrl+Tab and Ctrl+PageDown forward, with Shift or PageUp back (Ctrl on
  // every platform, as browsers do).
  if (e.ctrlKey && !e.altKey && !e.metaKey) {
    if (k === "Tab") return e.shiftKey ? "prev-tab" : "next-tab";
    if (k === "PageDown" && !e.shiftKey) return "next-tab";
    if (k === "PageUp" && !e.shiftKey) return "prev-tab";
  }
  if (mod && !e.altKey) {
    if (k === "z") return e.shiftKey ? "redo" : "undo";
    if (k === "y" && !mac) return "redo";
    if (k === "d") return "duplicate";
    if (k === "a") return "select-all";
    if (k === "s") return e.shiftKey ? "save-as" : "save";
    if (k === "o") return "open";
    if (k === "n") return "new";
    if (k === "l" && e.shiftKey) return "auto-layout";
    if (k === "f" && !e.shiftKey) return "find";
    if (k === "p" && e.shiftKey) return "palette";
    if (k === "k" && !e.shiftKey) return "palette";
    if (k === "c") return "copy";
    if (k === "x") return "cut";
    if (k === "v") return "paste";
    if (k === "g" && !e.shiftKey) return "group-selection";
    if (k === "e" && !e.shiftKey) return "toggle-text";
    return null;
  }
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  if (k === "F6") return "focus-canvas";
  if (k === "Delete" || k === "Backspace") return "delete";
  if (k === "?") return "help";
  if (k === "/") return "focus-search";
  if (k === "f") return "fit-view";
  if (k === "+" || k === "=") return "zoom-in";
  if (k === "-") return "zoom-out";
  if (k === "Escape") return "escape";
  return null;
}

/** Installs the listeners; returns the function that removes them. */
export function installShortcuts(): () => void {
  let pendingCopy: ReturnType<typeof setTimeout> | null = null;
  let pendingPaste: ReturnType<typeof setTimeout> | null = null;
  let copyHandled = false;
  let pasteHandled = false;

  const onKey = (e: KeyboardEvent) => {
    const action = actionFor(e);
    if (!action) return;
    const editable = isEditable(e.target);
    // In the text pane, find and Escape are the editor's own (its search panel).
    if (editable && (action === "find" || action === "escape") && (e.target as HTMLElement).closest?.("[data-text-pane]")) return;
    // F6 types nothing, so it leaves a text field for the canvas too (else a keyboard user who
    // has just typed a value has no way back to the graph but Tab through every panel).
    if (
      editable &&
      !["save", "save-as", "escape", "find", "palette", "focus-canvas", "next-tab", "prev-tab", "toggle-text"].includes(action)
    )
      return;
    if (action === "copy" || action === "cut") {
      // Let the browser fire the copy/cut event (it carries the clipboard); fall back if not.
      copyHandled = false;
      if (pendingCopy) clearTimeout(pendingCopy);
      pendingCopy = setTimeout(() => {
        if (!copyHandled) void copy(action === "cut");
      }, 80);
      return;
    }
    if (action === "paste") {
      pasteHandled = false;
      if (pendingPaste) clearTimeout(pendingPaste);
      pendingPaste = setTimeout(() => {
        if (!pasteHandled) void paste();
      }, 80);
      return;
    }
    e.preventDefault();
    void runAction(action);
  };
  const onCopy = (e: ClipboardEvent, cut: boolean) => {
    if (isEditable(e.target) || hasTextSelection()) return;
    const text = selectionFragmentText();
    if (!text) return;
    copyHandled = true;
    e.clipboardData?.setData("text/plain", text);
    e.preventDefault();
    void copy(cut, text);
  };
  const onPaste = (e: ClipboardEvent) => {
    if (isEditable(e.target)) return;
    pasteHandled = true;
    const text = e.clipboardData?.getData("text/plain") ?? "";
    e.preventDefault();
    void paste(text);
  };
  const c = (e: ClipboardEvent) => onCopy(e, false);
  const x = (e: ClipboardEvent) => onCopy(e, true);
  // WebKit enables its Copy/Cut/Paste commands outside editable content only when the page
  // cancels `beforecopy`/`beforecut`/`beforepaste`; without this the events never fire there.
  const enable = (e: Event) => {
    if (!isEditable(e.target) && !hasTextSelection()) e.preventDefault();
  };
  window.addEventListener("keydown", onKey);
  document.addEventListener("copy", c);
  document.addEventListener("cut", x);
  document.addEventListener("paste", onPaste);
  for (const t of ["beforecopy", "beforecut", "beforepaste"]) document.addEventListener(t, enable);
  return () => {
    window.removeEventListener("keydown", onKey);
    document.removeEventListener("copy", c);
    document.removeEventListener("cut", x);
    document.removeEventListener("paste", onPaste);
    for (const t of ["beforecopy", "beforecut", "beforepaste"]) document.removeEventListener(t, enable);
  };
}

function hasTextSelection(): boolean {
  const s = window.getSelection?.();
  return !!s && !s.isCollapsed && s.toString().length > 0;
}
