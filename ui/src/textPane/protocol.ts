// The text's updates between Rust and the editor, converted once: Rust's `TextUpdate` (changes
// in the places of the text before them, the editor's units) is a `@codemirror/collab` update,
// and the editor's unconfirmed updates are what the pane sends (`TextEdit`). Pure: the Vitest
// test runs it over updates Rust wrote (src/test/textPane.test.ts).
import type { Update } from "@codemirror/collab";
import { ChangeSet } from "@codemirror/state";
import type { TextChange, TextUpdate } from "../bindings";

/** Rust's update as the collab extension takes it. */
export function toUpdate(u: TextUpdate): Update {
  return {
    clientID: u.client,
    changes: ChangeSet.of(
      u.changes.map((c) => ({ from: c.from, to: c.to, insert: c.insert })),
      u.length,
    ),
  };
}

/** An editor change set as Rust takes it: changes in the places of the text before it, with
 * line breaks written as the document writes them (`lineBreak`: "\r\n" for a Windows file). */
export function changesOf(changes: ChangeSet, lineBreak = "\n"): TextChange[] {
  const out: TextChange[] = [];
  changes.iterChanges((fromA, toA, _fromB, _toB, inserted) => {
    out.push({ from: fromA, to: toA, insert: inserted.sliceString(0, inserted.length, lineBreak) });
  });
  return out;
}

/** The updates of a delta the editor does not have yet: a delta starts at version `from`; the
 * editor is at `at` (it may have some of them already, from another answer). `null`: it
 * misses updates before `from` (it must ask for them). */
export function unseen<T>(from: number, updates: readonly T[], at: number): readonly T[] | null {
  if (from > at) return null;
  return updates.slice(at - from);
}
