// Help > About: the version, the commit it was built from, the licence, the built-in node types
// and the runtime versions they follow, the system, and where the log file is. Everything shown
// is answered by Rust (`about`, src-tauri/src/app_info.rs), to copy into a bug report.
// Also tells where the log folder is when Help > Open Log Folder was chosen (`log-folder`).
import { useEffect, useRef } from "react";
import { create } from "zustand";
import { registerAction } from "../actions";
import { errorMessage } from "../api/types";
import type { AboutInfo } from "../bindings/AboutInfo";
import type { LogFolder } from "../bindings/LogFolder";
import type { RuntimeVersion } from "../bindings/RuntimeVersion";
import { ui } from "../store";

const useAbout = create<{ info: AboutInfo | null }>(() => ({ info: null }));

async function openAbout() {
  if (ui.get().backend?.kind !== "tauri") {
    ui.toast("info", "Trellis in a browser: the version and the log are the desktop app's.");
    return;
  }
  try {
    const { invoke } = await import("@tauri-apps/api/core");
    useAbout.setState({ info: await invoke<AboutInfo>("about") });
  } catch (err) {
    ui.toast("error", `About Trellis: ${errorMessage(err)}`);
  }
}

registerAction("about", openAbout);
// The menu's Open Log Folder is Rust's own; the palette asks Rust to do the same.
registerAction("open-log-folder", async () => {
  if (ui.get().backend?.kind !== "tauri") return;
  const { invoke } = await import("@tauri-apps/api/core");
  await invoke("show_log_folder").catch((err) => ui.toast("error", errorMessage(err)));
});

function closeAbout() {
  useAbout.setState({ info: null });
}

/** `@ilmek/mcp 0.2.0 (Ilmek)`, or `Weaveflow 0ad04ab` for a runtime without packages. */
export function runtimeLabel(r: RuntimeVersion): string {
  return r.package ? `${r.package} ${r.version} (${r.runtime})` : `${r.runtime} ${r.version}`;
}

/** The text a bug report wants, one fact a line. */
export function aboutText(info: AboutInfo): string {
  const runtimes = info.runtimes.length ? info.runtimes.map(runtimeLabel).join(", ") : "not recorded in this build's built-in registry";
  return [
    `Trellis ${info.version} (commit ${info.commit})`,
    `Licence: ${info.license}`,
    `Built-in node types: ${info.builtinRegistry}`,
    `Runtime versions they follow: ${runtimes}`,
    `System: ${info.os}`,
    `WebKitGTK: ${info.webkitgtk}`,
    `Log folder: ${info.logFolder}`,
  ].join("\n");
}

function useLogFolderNotice(tauri: boolean) {
  useEffect(() => {
    if (!tauri) return;
    let off: (() => void) | null = null;
    let alive = true;
    void (async () => {
      const { listen } = await import("@tauri-apps/api/event");
      const stop = await listen<LogFolder>("log-folder", (e) => {
        const f = e.payload;
        if (f.opened) ui.toast("info", `The log folder is ${f.path} (opened in your file manager).`, 8000);
        else ui.toast("warning", `The log folder is ${f.path} (no file manager could show it: ${f.reason ?? "unknown reason"}).`, 15000);
      });
      if (!alive) return stop();
      off = stop;
    })();
    return () => {
      alive = false;
      off?.();
    };
  }, [tauri]);
}

export function About({ tauri }: { tauri: boolean }) {
  useLogFolderNotice(tauri);
  const info = useAbout((s) => s.info);
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (info) close.current?.focus();
  }, [info]);
  if (!info) return null;
  const copy = () => {
    navigator.clipboard?.writeText(aboutText(info)).then(
      () => ui.toast("info", "Copied: paste it into your bug report."),
      (err) => ui.toast("error", `Could not copy: ${errorMessage(err)}`),
    );
  };
  return (
    <div className="overlay" data-testid="about" onClick={closeAbout}>
      <div
        className="help about"
        role="dialog"
        aria-label="About Trellis"
        onClick={(e) => e.stopPropagation()}
        onKeyDown={(e) => {
          if (e.key === "Escape") {
            e.stopPropagation();
            closeAbout();
          }
        }}
      >
        <div className="panel-head">
          About Trellis
          <button type="button" ref={close} className="link" onClick={closeAbout} aria-label="close">
            ×
          </button>
        </div>
        <dl className="about-facts">
          <dt>Version</dt>
          <dd data-testid="about-version">{info.version}</dd>
          <dt>Commit</dt>
          <dd data-testid="about-commit">{info.commit}</dd>
          <dt>Licence</dt>
          <dd data-testid="about-license">{info.license}</dd>
          <dt>Built-in node types</dt>
          <dd data-testid="about-builtin">{info.builtinRegistry}</dd>
          <dt>Runtime versions they follow</dt>
          <dd data-testid="about-runtimes">
            {info.runtimes.length ? (
              <ul>
                {info.runtimes.map((r) => (
                  <li key={runtimeLabel(r)}>{runtimeLabel(r)}</li>
                ))}
              </ul>
            ) : (
              <span className="muted">not recorded in this build's built-in registry</span>
            )}
          </dd>
          <dt>System</dt>
          <dd data-testid="about-os">{info.os}</dd>
          <dt>WebKitGTK</dt>
          <dd data-testid="about-webkitgtk">{info.webkitgtk}</dd>
          <dt>Log folder</dt>
          <dd data-testid="about-log-folder">{info.logFolder}</dd>
        </dl>
        <p>
          <button type="button" onClick={copy}>
            Copy for a bug report
          </button>
        </p>
      </div>
    </div>
  );
}
