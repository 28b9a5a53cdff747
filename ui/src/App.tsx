import { useEffect, useLayoutEffect } from "react";
import { runAction } from "./actions";
import type { Backend } from "./api/types";
import { errorMessage } from "./api/types";
import { Canvas } from "./canvas/Canvas";
import { ComparePanel } from "./compare/ComparePanel";
import { ConflictPanel } from "./compare/ConflictPanel";
import { FindBar } from "./find/FindBar";
import { ConflictBar, HelpOverlay, ProblemsPanel, StatusBar, Toasts, Toolbar } from "./panels/Chrome";
import { ExportImage } from "./exportImage/ExportImage";
import { ExportConfirm } from "./panels/ExportConfirm";
import { Inspector } from "./panels/Inspector";
import { FileDropHint } from "./panels/FileDropHint";
import { OpenProgress } from "./panels/OpenProgress";
import { OpenFailures } from "./panels/OpenFailures";
import { RegistryPanel } from "./panels/RegistryPanel";
import { Palette } from "./palette/Palette";
import { About } from "./about/About";
import { KeptSettings } from "./settings/KeptSettings";
import { Splitter } from "./settings/Splitter";
import { Breadcrumbs } from "./subgraphs/Breadcrumbs";
import { BehindBanner } from "./textPane/BehindBanner";
import { TextPane } from "./textPane/TextPane";
import { RunFolderPanel } from "./runs/RunFolderPanel";
import { RunInspector } from "./runs/RunInspector";
import { RunTimeline } from "./runs/RunTimeline";
import { SimulatePanel } from "./runs/SimulatePanel";
import "./runs/runs.css";
import { installShortcuts } from "./shortcuts";
import { ui, useUi } from "./store";
import { traceMark } from "./perf/editTrace";

export function App({ backend }: { backend: Backend }) {
  const activeId = useUi((s) => s.activeId);
  const view = useUi((s) => (s.activeId ? s.docs[s.activeId] : null)) ?? null;
  const registryOpen = useUi((s) => s.registryOpen);
  const readyDoc = useUi((s) => s.readyDoc);
  traceMark("render:app");
  // After every panel's render and DOM changes (layout effects run children first): the
  // edit trace tells React's render and commit apart from the canvas work that follows.
  useLayoutEffect(() => traceMark("commit"));

  useEffect(() => {
    ui.set({ backend });
    let alive = true;
    (async () => {
      try {
        const list = await backend.listDocuments();
        for (const d of list) {
          const v = await backend.getDocument(d.id);
          if (alive) ui.putDoc(v, false);
        }
      } catch (e) {
        ui.toast("error", `Could not load the open documents: ${errorMessage(e)}`);
      }
    })();
    const off = backend.subscribe((e) => {
      if (e.type === "changed") ui.putDoc(e.view);
      else if (e.type === "opened") ui.putDoc(e.view, true);
      else if (e.type === "closed") ui.dropDoc(e.id);
      else if (e.type === "menu") void runAction(e.action);
      else if (e.type === "problems") for (const d of e.diagnostics) ui.toast(d.severity === "error" ? "error" : "warning", d.message);
    });
    const offKeys = installShortcuts();
    return () => {
      alive = false;
      off();
      offKeys();
    };
  }, [backend]);

  return (
    <div
      className="app"
      data-testid="app"
      data-backend={backend.kind}
      data-active-doc={activeId ?? ""}
      data-ready={String(!!activeId && readyDoc === activeId)}
    >
      <Toolbar view={view} />
      <div className="main">
        {registryOpen && view && <RegistryPanel types={view.registry} />}
        {registryOpen && view && <Splitter pane="registry" side="left" defaultWidth={250} min={180} label="Resize the node types panel" />}
        <div className="center">
          <OpenFailures tauri={backend.kind === "tauri"} />
          <KeptSettings tauri={backend.kind === "tauri"} />
          <FileDropHint tauri={backend.kind === "tauri"} />
          <OpenProgress tauri={backend.kind === "tauri"} onStop={() => backend.cancelLayout()} />
          {view && <Breadcrumbs />}
          {view && <BehindBanner view={view} />}
          {view ? <Canvas key={activeId} view={view} /> : <Welcome />}
          <FindBar />
          {view?.conflict && <ConflictBar view={view} />}
          {view && <ConflictPanel view={view} />}
          {view && <RunTimeline docId={view.id} />}
          {view && <ProblemsPanel view={view} />}
        </div>
        {view && <TextPane view={view} />}
        {view && <RunFolderPanel docId={view.id} />}
        {view && <RunInspector docId={view.id} />}
        {view && <ComparePanel view={view} />}
        {view && <Splitter pane="inspector" side="right" defaultWidth={320} min={240} label="Resize the inspector" />}
        {view && <Inspector view={view} />}
      </div>
      <StatusBar view={view} />
      <HelpOverlay />
      <Palette />
      <ExportConfirm />
      <ExportImage />
      <About tauri={backend.kind === "tauri"} />
      {view && <SimulatePanel view={view} />}
      <Toasts />
    </div>
  );
}

function Welcome() {
  return (
    <div className="welcome" data-testid="welcome">
      <h2>No document open</h2>
      <p>
        <button onClick={() => void runAction("new")}>New document</button> <button onClick={() => void runAction("open")}>Open…</button>
      </p>
    </div>
  );
}
