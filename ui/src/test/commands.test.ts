// The one list of commands (commands.ts) against what makes them work: every key it shows is
// either handled by `actionFor` or is a native menu accelerator (src-tauri/src/menu.rs); every
// action `actionFor` or the menu can produce is listed; every listed action is run by
// `runAction`; and the palette's fuzzy search finds them by their words.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { COMMANDS, HELP_ROWS, PALETTE_COMMANDS } from "../commands";
import { makeCommandSearch } from "../palette/paletteSearch";
import { actionFor } from "../shortcuts";
import type { DocumentView } from "../bindings";
import "../find/findState";
import { useFocus } from "../keyboard/focusStore";
import { onCanvasKey } from "../keyboard/keyboardNav";
import { generateGraph } from "../perf/generate";
import { ui } from "../store";
import "../palette/Palette";

const menuRs = readFileSync(resolve(__dirname, "../../../src-tauri/src/menu.rs"), "utf8");
const actionsTs = readFileSync(resolve(__dirname, "../actions.ts"), "utf8");

/** The menu's items: id → accelerator (null when none). */
function menuItems(): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const m of menuRs.matchAll(/item\(app, (?:"([^"]+)"|([A-Z_]+)), "[^"]+", (?:Some\("([^"]+)"\)|Some\(([A-Z_]+)\)|None)\)/g)) {
    const constant = m[2] ? new RegExp(`const ${m[2]}: &str = "([^"]+)"`).exec(menuRs)?.[1] : undefined;
    out.set(m[1] ?? constant ?? "", m[3] ?? (m[4] ? "(platform)" : null));
  }
  return out;
}

type Ev = { key: string; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean };

/** `Ctrl+Shift+P` → the keydown it means (off macOS). */
function parseKeys(k: string): Ev | null {
  const parts = k.split("+").map((p) => p.trim());
  if (k === "+") return { key: "+", ctrlKey: false, metaKey: false, shiftKey: false, altKey: false };
  const key = parts.pop() ?? "";
  const ev: Ev = {
    key: key === "−" ? "-" : key === "Esc" ? "Escape" : key === "?" ? "?" : key.length === 1 ? key.toLowerCase() : key,
    ctrlKey: parts.includes("Ctrl"),
    metaKey: false,
    shiftKey: parts.includes("Shift"),
    altKey: parts.includes("Alt"),
  };
  if (/click|drag|\(/.test(k)) return null;
  return ev;
}

describe("the command list", () => {
  it("every key shown works: through actionFor, or as the menu's accelerator", () => {
    const menu = menuItems();
    const problems: string[] = [];
    for (const c of HELP_ROWS) {
      if (c.scope === "canvas") continue; // the next test
      for (const alt of (c.keys ?? "").split(" / ")) {
        if (/click|drag|\(in /.test(alt)) continue; // gestures: described, not pressed
        const ev = parseKeys(alt === "Backspace" || alt === "Delete" ? alt : alt);
        if (!ev) continue;
        const got = actionFor(ev, false);
        const accel = menu.get(c.action ?? "");
        const viaMenu = c.menuKeys || (accel && accel.replace("CmdOrCtrl", "Ctrl") === alt);
        if (got !== c.action && !viaMenu) problems.push(`${alt} shows "${c.label}" but runs ${got}`);
        if (c.menuKeys && accel?.replace("CmdOrCtrl", "Ctrl") !== alt) problems.push(`${alt}: menu.rs gives ${c.action} ${accel}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("every key shown for the focused canvas is taken by it", () => {
    const g = generateGraph(6);
    const view = {
      id: "1",
      fileName: "g.json",
      format: "graphspec",
      spec: g.spec,
      layout: { positions: g.positions },
      diagnostics: [],
      registry: [],
    } as unknown as DocumentView;
    ui.set({ docs: { "1": view }, order: ["1"], activeId: "1", selection: { nodes: [], edges: [] } });
    const names: Record<string, string[]> = { "←/→/↑/↓": ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"], Space: [" "] };
    const unused: string[] = [];
    for (const c of HELP_ROWS.filter((r) => r.scope === "canvas")) {
      const keys = c.keys ?? "";
      const mods = keys.split("+").slice(0, -1);
      const last = keys.split("+").pop() ?? "";
      for (const key of names[last] ?? [last]) {
        useFocus.setState({ focus: { kind: "node", id: g.spec.nodes[1].id }, connecting: false });
        const ev = { key, ctrlKey: mods.includes("Ctrl"), metaKey: false, altKey: mods.includes("Alt"), shiftKey: false } as KeyboardEvent;
        if (!onCanvasKey(ev)) unused.push(`${keys} (${key})`);
      }
    }
    expect(unused).toEqual([]);
  });

  it("lists Ctrl+W, Ctrl+Q and F1 (the overlay missed them before)", () => {
    const keys = HELP_ROWS.map((c) => c.keys ?? "");
    expect(keys).toContain("Ctrl+W");
    expect(keys).toContain("Ctrl+Q");
    expect(keys.some((k) => k.split(" / ").includes("F1"))).toBe(true);
    expect(menuItems().get("help")).toBe("F1");
  });

  it("every action a key or a menu item produces is in the list", () => {
    const listed = new Set(COMMANDS.map((c) => c.action));
    const produced = new Set<string>();
    const keys = [
      ..."abcdefghijklmnopqrstuvwxyz0123456789/?+=-",
      "Delete",
      "Backspace",
      "Escape",
      "Enter",
      "F1",
      "Tab",
      "PageDown",
      "PageUp",
    ];
    for (const key of keys)
      for (const ctrlKey of [false, true])
        for (const shiftKey of [false, true])
          for (const altKey of [false, true]) {
            const a = actionFor({ key, ctrlKey, metaKey: false, shiftKey, altKey }, false);
            if (a) produced.add(a);
          }
    for (const id of menuItems().keys()) if (!id.startsWith("recent")) produced.add(id);
    expect([...produced].filter((a) => !listed.has(a))).toEqual([]);
  });

  it("every command in the palette is run by runAction", () => {
    const cases = new Set([...actionsTs.matchAll(/case "([^"]+)":/g)].map((m) => m[1]));
    // Modules register their own actions (`registerAction("name", ...)`): read them from the sources.
    const registered = new Set<string>();
    for (const f of [
      "find/findState.ts",
      "palette/Palette.tsx",
      "keyboard/keyboardNav.ts",
      "annotations/actions.ts",
      "subgraphs/open.ts",
      "exportImage/exportImageState.ts",
      "panels/Tabs.tsx",
      "textPane/TextPane.tsx",
      "about/About.tsx",
      "runs/runState.ts",
    ])
      for (const m of readFileSync(resolve(__dirname, "..", f), "utf8").matchAll(/registerAction\("([^"]+)"/g)) registered.add(m[1]);
    const unhandled = PALETTE_COMMANDS.map((c) => c.action as string).filter((a) => !cases.has(a) && !registered.has(a));
    expect(unhandled).toEqual([]);
  });

  it("the palette finds commands by fuzzy words", () => {
    const search = makeCommandSearch();
    expect(search("clos tab")[0]?.action).toBe("close");
    expect(search("find")[0]?.action).toBe("find");
    expect(search("expor weav")[0]?.action).toBe("export-weaveflow");
    expect(search("")).toHaveLength(PALETTE_COMMANDS.length);
    expect(search("zzzzqqq")).toEqual([]);
  });
});
