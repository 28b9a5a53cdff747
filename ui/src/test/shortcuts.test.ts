import { describe, expect, it } from "vitest";
import { actionFor } from "../shortcuts";

const key = (k: string, mods: Partial<Record<"ctrlKey" | "metaKey" | "shiftKey" | "altKey", boolean>> = {}) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});

describe("platform shortcuts", () => {
  it("uses Ctrl off macOS and Cmd on macOS", () => {
    expect(actionFor(key("z", { ctrlKey: true }), false)).toBe("undo");
    expect(actionFor(key("z", { metaKey: true }), false)).toBeNull();
    expect(actionFor(key("z", { metaKey: true }), true)).toBe("undo");
    expect(actionFor(key("Z", { metaKey: true, shiftKey: true }), true)).toBe("redo");
    expect(actionFor(key("y", { ctrlKey: true }), false)).toBe("redo");
    expect(actionFor(key("y", { metaKey: true }), true)).toBeNull();
  });
  it("maps the editing keys", () => {
    expect(actionFor(key("d", { ctrlKey: true }), false)).toBe("duplicate");
    expect(actionFor(key("a", { ctrlKey: true }), false)).toBe("select-all");
    expect(actionFor(key("L", { ctrlKey: true, shiftKey: true }), false)).toBe("auto-layout");
    expect(actionFor(key("Delete"), false)).toBe("delete");
    expect(actionFor(key("Backspace"), false)).toBe("delete");
    expect(actionFor(key("?", { shiftKey: true }), false)).toBe("help");
    expect(actionFor(key("/"), false)).toBe("focus-search");
    expect(actionFor(key("s", { ctrlKey: true, shiftKey: true }), false)).toBe("save-as");
  });
  it("leaves other keys alone", () => {
    expect(actionFor(key("q"), false)).toBeNull();
    expect(actionFor(key("d", { altKey: true }), false)).toBeNull();
  });
});
