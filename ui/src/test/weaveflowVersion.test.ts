// The accepted Weaveflow version is an app setting owned by the backend: the UI action sets it,
// answers the value in force, and a refused value (empty) leaves it as it was with an error toast.
import { afterEach, describe, expect, it } from "vitest";
import { setWeaveflowVersion } from "../actions";
import { ui } from "../store";
import { RecordedBackend, rust } from "./recorded";

afterEach(() => {
  ui.set({ backend: null, docs: {}, order: [], activeId: null, toasts: [] });
});

describe("the accepted Weaveflow version", () => {
  it("is set through the backend and refused when empty", async () => {
    // Rust's answers: " 2.0 " is accepted as "2.0", "   " is refused with a reason.
    const backend = new RecordedBackend([]);
    ui.set({ backend });
    expect(await backend.weaveflowVersion()).toBe("1.0");
    expect(await setWeaveflowVersion(" 2.0 ")).toBe("2.0");
    expect(await backend.weaveflowVersion()).toBe("2.0");
    expect(await setWeaveflowVersion("   ")).toBeNull();
    expect(await backend.weaveflowVersion()).toBe("2.0");
    expect(ui.get().toasts.map((t) => t.text)).toContain(rust.weaveflowVersion.refused.message);
    expect(backend.unexpected).toEqual([]);
  });
});
