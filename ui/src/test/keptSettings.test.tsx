// The settings kept between runs, against what Rust answers (fixtures/settings.json, written by
// src-tauri/src/settings.rs): a kept file gives its theme and pane widths; a broken one gives
// the notice (shown until dismissed) and the defaults; a change is sent back whole.
import { act } from "react";
import { createRoot } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SettingsAnswer } from "../bindings/SettingsAnswer";
import { KeptSettings } from "../settings/KeptSettings";
import { Splitter, paneWidth } from "../settings/Splitter";
import { useKept } from "../settings/keptSettings";
import { ui } from "../store";
import text from "./fixtures/settings.json?raw";

(globalThis as unknown as { IS_REACT_ACT_ENVIRONMENT: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const rust = JSON.parse(text) as { kept: SettingsAnswer; setAside: SettingsAnswer };
const calls: { cmd: string; args: unknown }[] = [];
let answer: SettingsAnswer = rust.kept;

vi.mock("@tauri-apps/api/core", () => ({
  invoke: async (cmd: string, args?: unknown) => {
    calls.push({ cmd, args });
    if (cmd === "load_settings") return answer;
    if (cmd === "save_settings") return null;
    throw new Error(`unexpected command ${cmd}`);
  },
}));

let root: ReturnType<typeof createRoot> | null = null;

async function render(el: React.ReactElement) {
  const host = document.createElement("div");
  document.body.appendChild(host);
  root = createRoot(host);
  await act(async () => root?.render(el));
  // The load is asynchronous (a dynamic import, then the command).
  for (let i = 0; i < 20 && !calls.some((c) => c.cmd === "load_settings"); i++) await act(() => new Promise((r) => setTimeout(r, 10)));
  await act(() => new Promise((r) => setTimeout(r, 10)));
}

beforeEach(() => {
  calls.length = 0;
  useKept.setState({ splits: {}, notices: [] });
  ui.set({ theme: "system" });
  delete document.documentElement.dataset.theme;
});

afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = "";
});

describe("kept settings", () => {
  it("applies a kept file's theme and pane widths, and says nothing", async () => {
    answer = rust.kept;
    await render(<KeptSettings tauri />);
    expect(document.documentElement.dataset.theme).toBe("dark");
    expect(ui.get().theme).toBe("dark");
    expect(useKept.getState().splits).toEqual({ registry: 300 });
    expect(document.querySelector("[data-testid=settings-notice]")).toBeNull();
  });

  it("shows Rust's notice for a broken file, keeps the defaults, and dismisses it", async () => {
    answer = rust.setAside;
    await render(<KeptSettings tauri />);
    const notice = document.querySelector<HTMLElement>("[data-testid=settings-notice]");
    expect(notice?.dataset.code).toBe("settings/set-aside");
    expect(notice?.textContent).toContain("settings.json.unreadable-1765000000");
    expect(notice?.textContent).toContain("default settings");
    expect(ui.get().theme).toBe("system");
    expect(document.documentElement.dataset.theme).toBeUndefined();
    await act(async () => notice?.querySelector("button")?.click());
    expect(document.querySelector("[data-testid=settings-notice]")).toBeNull();
  });

  it("sends the whole settings back when the theme changes", async () => {
    answer = rust.kept;
    await render(<KeptSettings tauri />);
    await act(async () => ui.set({ theme: "light" }));
    const saved = calls.filter((c) => c.cmd === "save_settings");
    expect(saved).toEqual([{ cmd: "save_settings", args: { settings: { theme: "light", splits: { registry: 300 } } } }]);
  });

  it("reads nothing outside the app", async () => {
    await render(<KeptSettings tauri={false} />);
    expect(calls).toEqual([]);
  });
});

describe("the pane handle", () => {
  it("keeps a width between the pane's minimum and 45% of the window", () => {
    expect(paneWidth(100, 180, 1000)).toBe(180);
    expect(paneWidth(300, 180, 1000)).toBe(300);
    expect(paneWidth(900, 180, 1000)).toBe(450);
    expect(paneWidth(900, 180, 300)).toBe(180);
  });

  it("resizes from the keyboard and keeps the width", async () => {
    answer = rust.kept;
    await render(
      <>
        <KeptSettings tauri />
        <Splitter pane="registry" side="left" defaultWidth={250} min={180} label="Resize" />
      </>,
    );
    const handle = document.querySelector<HTMLElement>("[data-testid=splitter-registry]");
    expect(handle?.getAttribute("aria-valuenow")).toBe("300");
    expect(document.documentElement.style.getPropertyValue("--pane-registry")).toBe("300px");
    await act(async () => handle?.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true })));
    expect(handle?.getAttribute("aria-valuenow")).toBe("316");
    expect(document.documentElement.style.getPropertyValue("--pane-registry")).toBe("316px");
    const saved = calls.filter((c) => c.cmd === "save_settings").at(-1);
    expect(saved?.args).toEqual({ settings: { theme: "dark", splits: { registry: 316 } } });
  });
});
