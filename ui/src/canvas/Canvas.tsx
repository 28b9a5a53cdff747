// The canvas. Two drawings of one graph:
// - "dom": React Flow with custom memoized nodes, only what is in view rendered
//   (`onlyRenderVisibleElements`), for what is close enough to read and edit;
// - "canvas": zoomed out, or too many nodes in view: React Flow keeps the viewport (pan and
//   zoom) but renders no elements; the whole graph is drawn on one <canvas> (overview.ts), and
//   select / box select / drag are handled by hit testing (`useOverviewGestures`).
// This file puts the drawing together; each concern is a hook of its own file beside it.
import {
  Background,
  BackgroundVariant,
  ControlButton,
  Controls,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  useStoreApi,
} from "@xyflow/react";
import type { DocumentView } from "../bindings";
import { CanvasOverlays } from "../keyboard/CanvasOverlays";
import { CompareOverlay } from "../compare/CompareOverlay";
import { RunOverlay } from "../runs/RunOverlay";
import { traceMark } from "../perf/editTrace";
import { useUi } from "../store";
import { GraphNode, TerminalNode } from "./GraphNode";
import { GuardEdge } from "./GuardEdge";
import { MiniMap } from "./MiniMap";
import { AnnotationLayer } from "../annotations/AnnotationLayer";
import { GroupBox } from "../annotations/GroupBox";
import { usePaletteDrop } from "./paletteDrop";
import { useCanvasData } from "./useCanvasData";
import { useDocumentViewport } from "./useDocumentViewport";
import { useDomDrag } from "./useDomDrag";
import { useDomSubset } from "./useDomSubset";
import { useFlowChanges } from "./useFlowChanges";
import { useOverviewGestures } from "./useOverviewGestures";
import { useOverviewRenderer } from "./useOverviewRenderer";
import { useOverviewRoutes } from "./useOverviewRoutes";
import { useOverviewScene, useScene } from "./useOverviewScene";
import { usePerfProbe } from "./usePerfProbe";
import { useRenderMode } from "./useRenderMode";
import { useViewportController } from "./useViewportController";

const nodeTypes = { graph: GraphNode, terminal: TerminalNode, groupBox: GroupBox };
const edgeTypes = { guard: GuardEdge };

/** The dotted grid repaints the whole pane on every pan frame, which software painting
 * (WebKitGTK under X11 without GPU) pays dearly for: off unless asked for (`?grid=1`). */
const showGrid = typeof location !== "undefined" && new URLSearchParams(location.search).get("grid") === "1";

export function Canvas({ view }: { view: DocumentView }) {
  return (
    <ReactFlowProvider>
      <CanvasInner view={view} />
    </ReactFlowProvider>
  );
}

function CanvasInner({ view }: { view: DocumentView }) {
  traceMark("render");
  const rf = useReactFlow();
  const store = useStoreApi();
  const mode = useUi((s) => s.renderMode);
  const theme = useUi((s) => s.theme);
  const data = useCanvasData(view);
  const { basePositions, types } = data;

  const { wrapper, overlay, renderer, scheduleDraw } = useOverviewRenderer(store, theme);
  const { win, updateMode } = useRenderMode(store, renderer, scheduleDraw, mode);
  const scene = useScene(view, data);
  useOverviewScene(scene, data, renderer, updateMode, scheduleDraw);
  useOverviewRoutes(view, renderer, scheduleDraw);
  const { drag, dragged, onNodeDragStop } = useDomDrag(view, data);
  const flow = useDomSubset(view, data, mode, win, scene, drag);

  const { frame, fitRef } = useViewportController(rf, store, basePositions);
  const { firstDrawn, onMoveEnd } = useDocumentViewport(view, basePositions, rf, store, fitRef, updateMode, scheduleDraw);
  usePerfProbe(rf, store, wrapper, renderer, fitRef, firstDrawn);

  const { onNodesChange, onEdgesChange, onConnect } = useFlowChanges(dragged);
  const { onDragOver, onDrop } = usePaletteDrop(rf, types);
  const gestures = useOverviewGestures(view, basePositions, rf, store, renderer, scheduleDraw, frame);

  const dom = mode === "dom";
  return (
    <div
      ref={wrapper}
      className={`canvas-wrap mode-${mode}`}
      data-testid="canvas"
      data-render-mode={mode}
      tabIndex={0}
      role="application"
      aria-roledescription="graph canvas"
      aria-label="Graph canvas. Arrows move between nodes, Ctrl+arrows follow edges, E the edges, Enter inspects (opens a subgraph node; Shift+Enter inspects it), C connects, Alt+arrows move, Delete deletes."
      onDragOver={onDragOver}
      onDrop={onDrop}
      onPointerDownCapture={gestures.onPointerDownCapture}
      onPointerMove={gestures.onPointerMove}
      onPointerUp={gestures.onPointerUp}
      onDoubleClickCapture={gestures.onDoubleClick}
    >
      <ReactFlow
        nodes={flow.nodes}
        edges={flow.edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onNodeDragStop={onNodeDragStop}
        onConnect={onConnect}
        onPaneClick={gestures.onPaneClick}
        onMoveEnd={onMoveEnd}
        onlyRenderVisibleElements
        colorMode={theme}
        minZoom={0.01}
        maxZoom={2.5}
        deleteKeyCode={null}
        selectionKeyCode="Shift"
        multiSelectionKeyCode={["Meta", "Control"]}
        connectionRadius={28}
        elevateEdgesOnSelect={false}
        nodesFocusable={false}
        edgesFocusable={false}
        disableKeyboardA11y
        proOptions={{ hideAttribution: true }}
        defaultEdgeOptions={{ markerEnd: { type: "arrowclosed" as never, width: 16, height: 16 } }}
      >
        {dom && showGrid && <Background variant={BackgroundVariant.Dots} gap={24} size={1} />}
        {/* Zoomed out, the overview canvas draws the frames and notes into its bitmap. */}
        {dom && <AnnotationLayer view={view} positions={basePositions} window={win} />}
        <Controls showFitView={false} showInteractive={false} position="bottom-left">
          <ControlButton onClick={() => fitRef.current()} title="Fit the graph (F)" aria-label="fit view" data-testid="fit-view">
            ⤢
          </ControlButton>
        </Controls>
      </ReactFlow>
      <canvas ref={overlay} className="overview" data-testid="overview-canvas" style={{ display: dom ? "none" : "block" }} />
      <CanvasOverlays view={view} positions={basePositions} />
      <CompareOverlay docId={view.id} positions={basePositions} />
      <RunOverlay docId={view.id} positions={basePositions} />
      <MiniMap boxes={scene} />
    </div>
  );
}
