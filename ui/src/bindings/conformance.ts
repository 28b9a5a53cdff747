// Type-level check that the hand-written shapes the UI uses agree with the ts-rs output of the
// Rust crates (typecheck fails on drift). Extend it to DocumentView once the generated
// GraphSpec.ts / Layout.ts import the types they name (ChannelSpec, Position).
import type { Edit as RustEdit } from "./Edit";
import type { Edit as UiEdit } from "./hand-written";

/** Every edit the UI sends is one Rust accepts. */
export const uiEditsAreRustEdits = (e: UiEdit): RustEdit => e;
