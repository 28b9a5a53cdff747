// The text of the element selected on the canvas, highlighted in the pane (and kept on it while
// the text around it changes).
import { StateEffect, StateField } from "@codemirror/state";
import { Decoration, type DecorationSet, EditorView } from "@codemirror/view";

/** Highlights `from..to` (or nothing). */
export const setElementHighlight = StateEffect.define<{ from: number; to: number } | null>({
  map: (v, changes) => (v ? { from: changes.mapPos(v.from), to: changes.mapPos(v.to, 1) } : v),
});

const mark = Decoration.mark({ class: "cm-selected-element" });
const line = Decoration.line({ class: "cm-selected-element-line" });

export const elementHighlight = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(set, tr) {
    let out = set.map(tr.changes);
    for (const e of tr.effects) {
      if (!e.is(setElementHighlight)) continue;
      if (!e.value || e.value.to <= e.value.from) {
        out = Decoration.none;
        continue;
      }
      const { from, to } = e.value;
      const doc = tr.state.doc;
      const first = doc.lineAt(from).number;
      const last = doc.lineAt(Math.max(from, to - 1)).number;
      const ranges = [mark.range(from, to)];
      // The lines too, so a one-line element stands out as much as a long one (at most a
      // screenful: an element spanning thousands of lines is shown by its mark alone).
      for (let n = first; n <= last && n - first < 200; n++) ranges.push(line.range(doc.line(n).from));
      out = Decoration.set(ranges, true);
    }
    return out;
  },
  provide: (f) => EditorView.decorations.from(f),
});
