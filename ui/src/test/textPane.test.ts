// The text pane's protocol over what Rust answered (fixtures/text-pane.json, written by
// crates/doc/src/tests/text.rs): an editor state with the collab extension, typing as the pane
// types, taking each answer's text part with the pane's own code, holds exactly Rust's text after
// every step, with its typing confirmed and nothing left to send: in the three formats, and in a
// GRAPH.md with Windows line breaks and characters beyond ASCII (the editor counts both its own
// way; Rust converts its places once).
import { collab, getSyncedVersion, receiveUpdates, sendableUpdates } from "@codemirror/collab";
import { ChangeSet, EditorState } from "@codemirror/state";
import { describe, expect, it } from "vitest";
import type { TextChange, TextDelta } from "../bindings";
import { changesOf, toUpdate, unseen } from "../textPane/protocol";
import fixture from "./fixtures/text-pane.json";

type Step = { typed: TextChange[] | null; delta: TextDelta; text: string };
type Doc = { open: { version: number; text: string }; steps: Step[] };

const docs = fixture as unknown as Record<string, Doc>;

/** The editor's text as the file holds it (its own line breaks). */
function fileText(state: EditorState): string {
  return state.sliceDoc(0, state.doc.length);
}

function opened(doc: Doc): EditorState {
  return EditorState.create({
    doc: doc.open.text,
    extensions: [
      collab({ startVersion: doc.open.version, clientID: "pane" }),
      ...(doc.open.text.includes("\r\n") ? [EditorState.lineSeparator.of("\r\n")] : []),
    ],
  });
}

describe("the text pane follows Rust's answers", () => {
  for (const [name, doc] of Object.entries(docs)) {
    it(`${name}: every step leaves the pane on Rust's text`, () => {
      let state = opened(doc);
      expect(fileText(state)).toBe(doc.open.text);
      for (const [i, step] of doc.steps.entries()) {
        if (step.typed) {
          // The pane types: the change goes into the editor at once, and is what it would send.
          const changes = ChangeSet.of(step.typed, state.doc.length, state.lineBreak);
          state = state.update({ changes, userEvent: "input.type" }).state;
          const pending = sendableUpdates(state);
          expect(pending.length, `${name} step ${i}`).toBe(1);
          expect(changesOf(pending[0].changes, state.lineBreak)).toEqual(step.typed.filter((c) => c.from !== c.to || c.insert));
        }
        const fresh = unseen(step.delta.from, step.delta.updates, getSyncedVersion(state));
        expect(fresh, `${name} step ${i}: an answer from the pane's version`).not.toBeNull();
        state = state.update(receiveUpdates(state, (fresh ?? []).map(toUpdate))).state;
        expect(getSyncedVersion(state), `${name} step ${i}`).toBe(step.delta.to);
        expect(sendableUpdates(state), `${name} step ${i}: typing confirmed`).toHaveLength(0);
        expect(fileText(state), `${name} step ${i}`).toBe(step.text);
      }
    });
  }

  it("an answer the pane partly has already gives it only the rest", () => {
    expect(unseen(3, ["a", "b", "c"], 4)).toEqual(["b", "c"]);
    expect(unseen(3, ["a"], 3)).toEqual(["a"]);
    expect(unseen(5, ["a"], 3)).toBeNull();
  });

  it("the fixture covers typing, canvas edits and Windows line breaks", () => {
    const all = Object.values(docs).flatMap((d) => d.steps);
    expect(all.some((s) => s.typed)).toBe(true);
    expect(all.some((s) => !s.typed && s.delta.updates.length)).toBe(true);
    expect(Object.values(docs).some((d) => d.open.text.includes("\r\n") && [...d.open.text].some((c) => c.charCodeAt(0) > 127))).toBe(true);
  });
});
