// Notes and group frames in the DOM drawing, in the canvas's own coordinates (React Flow's
// viewport portal) behind the nodes; zoomed out, the overview canvas draws them into its bitmap
// instead (collapsedCanvas.ts `annotationUnderlay`). Notes render their Markdown (react-markdown:
// no raw HTML; links and images shown as text, the app never navigates or fetches); a
// double-click edits the text in place. Frames carry the group's name, member count and the
// collapse button; dragging a frame's title moves the whole group in one undo step.
import { ViewportPortal, useStoreApi } from "@xyflow/react";
import { memo, useCallback, useRef, useState } from "react";
import Markdown from "react-markdown";
import type { DocumentView, Note, Point } from "../bindings";
import type { Rect } from "../lib/geometry";
import { edit } from "../actions";
import { COLORS, type Frame, colorOf, framesOf, moveGroups } from "./frames";
import { renameGroup, selectAnnotation, setCollapsed, useAnnotationSelection } from "./actions";
import "./annotations.css";

const mdComponents = {
  a: ({ children, href }: { children?: React.ReactNode; href?: string }) => (
    <span className="note-link" title={href}>
      {children}
    </span>
  ),
  img: ({ alt, src }: { alt?: string; src?: string }) => <span title={src}>[{alt || "image"}]</span>,
};

/** A pointer drag in flow units: calls `move` with the offset while dragging, `end` once. */
function useFlowDrag(onEnd: (dx: number, dy: number) => void) {
  const store = useStoreApi();
  const [offset, setOffset] = useState<Point | null>(null);
  const start = useRef<{ x: number; y: number; z: number } | null>(null);
  const onPointerDown = useCallback(
    (e: React.PointerEvent) => {
      if (e.button !== 0) return;
      e.stopPropagation();
      start.current = { x: e.clientX, y: e.clientY, z: store.getState().transform[2] };
      (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
    },
    [store],
  );
  const onPointerMove = useCallback((e: React.PointerEvent) => {
    const s = start.current;
    if (!s) return;
    const dx = (e.clientX - s.x) / s.z;
    const dy = (e.clientY - s.y) / s.z;
    if (Math.hypot(dx, dy) * s.z >= 3) setOffset({ x: dx, y: dy });
  }, []);
  const onPointerUp = useCallback(
    (e: React.PointerEvent) => {
      const s = start.current;
      start.current = null;
      if (!s) return;
      const dx = Math.round((e.clientX - s.x) / s.z);
      const dy = Math.round((e.clientY - s.y) / s.z);
      setOffset(null);
      if (Math.hypot(dx, dy) * s.z >= 3) onEnd(dx, dy);
    },
    [onEnd],
  );
  return { offset, handlers: { onPointerDown, onPointerMove, onPointerUp } };
}

const NoteView = memo(function NoteView({ note, selected, editing }: { note: Note; selected: boolean; editing: boolean }) {
  const [draft, setDraft] = useState<string | null>(null);
  const move = useFlowDrag((dx, dy) => void edit({ op: "set_note", id: note.id, position: { x: note.x + dx, y: note.y + dy } }));
  const resize = useFlowDrag(
    (dx, dy) =>
      void edit({
        op: "set_note",
        id: note.id,
        size: { width: Math.max(40, Math.round(note.width + dx)), height: Math.max(40, Math.round(note.height + dy)) },
      }),
  );
  const c = colorOf(note.color);
  const x = note.x + (move.offset?.x ?? 0);
  const y = note.y + (move.offset?.y ?? 0);
  const w = Math.max(40, note.width + (resize.offset?.x ?? 0));
  const h = Math.max(40, note.height + (resize.offset?.y ?? 0));
  const editingNow = editing || draft !== null;
  const commit = () => {
    const text = draft ?? note.text;
    setDraft(null);
    useAnnotationSelection.setState({ editing: null });
    if (text !== note.text) void edit({ op: "set_note", id: note.id, text });
  };
  return (
    <div
      className={`an-note nopan nodrag nowheel${selected ? " selected" : ""}`}
      data-testid={`note-${note.id}`}
      data-note-id={note.id}
      style={{ transform: `translate(${x}px, ${y}px)`, width: w, height: h, background: c.fill, borderColor: c.line }}
      onPointerDown={(e) => {
        e.stopPropagation();
        if (!editingNow) selectAnnotation("note", note.id, e.ctrlKey || e.metaKey);
      }}
      onDoubleClick={(e) => {
        e.stopPropagation();
        setDraft(note.text);
      }}
      role="note"
      aria-label={`Note: ${note.text.slice(0, 80) || "empty"}`}
    >
      <div className="an-note-grip" {...move.handlers} title="Drag to move the note" />
      {editingNow ? (
        <textarea
          className="an-note-edit"
          data-testid={`note-edit-${note.id}`}
          // biome-ignore lint/a11y/noAutofocus: a double-click asked to edit this text
          autoFocus
          value={draft ?? note.text}
          onChange={(e) => setDraft(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            e.stopPropagation();
            if (e.key === "Escape") {
              setDraft(null);
              useAnnotationSelection.setState({ editing: null });
            } else if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) commit();
          }}
          placeholder="Markdown: # title, *emphasis*, - lists, `code`"
        />
      ) : (
        <div className="an-note-body" data-testid={`note-body-${note.id}`}>
          {note.text ? <Markdown components={mdComponents}>{note.text}</Markdown> : <span className="an-empty">Double-click to write</span>}
        </div>
      )}
      {selected && !editingNow && (
        <div className="an-toolbar" data-testid={`note-tools-${note.id}`}>
          {COLORS.map((k) => (
            <button
              type="button"
              key={k}
              className={`an-swatch${k === note.color ? " on" : ""}`}
              style={{ background: colorOf(k).fill, borderColor: colorOf(k).line }}
              title={k}
              aria-label={`colour ${k}`}
              onPointerDown={(e) => e.stopPropagation()}
              onClick={() => void edit({ op: "set_note", id: note.id, color: k })}
            />
          ))}
        </div>
      )}
      <div className="an-resize" {...resize.handlers} title="Drag to resize" data-testid={`note-resize-${note.id}`} />
    </div>
  );
});

const FrameView = memo(function FrameView({
  frame,
  view,
  positions,
  selected,
}: {
  frame: Frame;
  view: DocumentView;
  positions: Record<string, Point>;
  selected: boolean;
}) {
  const g = frame.group;
  const [naming, setNaming] = useState(false);
  const drag = useFlowDrag((dx, dy) => {
    const m = moveGroups(view, positions, [g.id], dx, dy);
    void edit({ op: "move_nodes", positions: m.positions, notes: m.notes });
  });
  const c = colorOf(g.color);
  const r = frame.rect;
  const x = r.x + (drag.offset?.x ?? 0);
  const y = r.y + (drag.offset?.y ?? 0);
  return (
    <div
      className={`an-frame${selected ? " selected" : ""}`}
      data-testid={`group-${g.id}`}
      data-group-id={g.id}
      style={{ transform: `translate(${x}px, ${y}px)`, width: r.w, height: r.h, borderColor: c.line, background: c.fill }}
    >
      <div
        className="an-frame-title nopan nodrag"
        style={{ background: c.line }}
        {...drag.handlers}
        onPointerDown={(e) => {
          if (!(e.target as HTMLElement).closest("button, input")) {
            selectAnnotation("group", g.id, e.ctrlKey || e.metaKey);
            drag.handlers.onPointerDown(e);
          }
        }}
        onDoubleClick={() => setNaming(true)}
        title="Drag to move the group; double-click to rename"
      >
        <button
          type="button"
          className="an-collapse"
          data-testid={`group-collapse-${g.id}`}
          aria-label={`collapse ${g.name}`}
          title="Collapse"
          onClick={() => void setCollapsed(g.id, true)}
        >
          ▾
        </button>
        {naming ? (
          <input
            className="an-name-edit"
            // biome-ignore lint/a11y/noAutofocus: a double-click asked to rename
            autoFocus
            defaultValue={g.name}
            data-testid={`group-name-edit-${g.id}`}
            onKeyDown={(e) => {
              e.stopPropagation();
              if (e.key === "Enter") (e.target as HTMLInputElement).blur();
              if (e.key === "Escape") setNaming(false);
            }}
            onBlur={(e) => {
              setNaming(false);
              void renameGroup(g.id, e.target.value);
            }}
          />
        ) : (
          <span className="an-name" data-testid={`group-name-${g.id}`}>
            {g.name}
          </span>
        )}
        <span className="an-count">{frame.count}</span>
        {selected && (
          <span className="an-colors">
            {COLORS.map((k) => (
              <button
                type="button"
                key={k}
                className={`an-swatch small${k === g.color ? " on" : ""}`}
                style={{ background: colorOf(k).fill, borderColor: colorOf(k).line }}
                title={k}
                aria-label={`group colour ${k}`}
                onClick={() => void edit({ op: "set_group", id: g.id, color: k })}
              />
            ))}
          </span>
        )}
      </div>
    </div>
  );
});

/** `window`: the part of the canvas React Flow holds (Canvas.tsx); only what meets it is drawn. */
export function AnnotationLayer({
  view,
  positions,
  window: win,
}: {
  view: DocumentView;
  positions: Record<string, Point>;
  window: Rect | null;
}) {
  const sel = useAnnotationSelection();
  const meets = (r: Rect) => !win || (r.x < win.x + win.w && r.x + r.w > win.x && r.y < win.y + win.h && r.y + r.h > win.y);
  const frames = framesOf(view, positions).frames.filter((f) => meets(f.rect));
  const hiddenNotes = view.collapsed.notes;
  if (!frames.length && !view.layout.notes.length) return null;
  const notes = view.layout.notes.filter((n) => !(n.id in hiddenNotes) && meets({ x: n.x, y: n.y, w: n.width, h: n.height }));
  // A note being worked on (selected, or its text edited: a new note is both) is drawn in front
  // of the nodes, the others behind them.
  const raised = (n: Note) => sel.editing === n.id || sel.notes.includes(n.id);
  const note = (n: Note) => <NoteView key={n.id} note={n} selected={sel.notes.includes(n.id)} editing={sel.editing === n.id} />;
  return (
    <ViewportPortal>
      <div className="an-layer">
        {frames.map((f) => (
          <FrameView key={f.group.id} frame={f} view={view} positions={positions} selected={sel.groups.includes(f.group.id)} />
        ))}
        {notes.filter((n) => !raised(n)).map(note)}
      </div>
      <div className="an-layer an-raised" data-testid="notes-in-front">
        {notes.filter(raised).map(note)}
      </div>
    </ViewportPortal>
  );
}
