// Loads the kept settings when the app's window starts (keptSettings.ts) and shows what the start
// had to say about them: a settings file that could not be read was set aside, and the app runs
// with the defaults. The notice stays until dismissed.
import { useEffect } from "react";
import { errorMessage } from "../api/types";
import { ui } from "../store";
import { dismissSettingsNotice, loadKeptSettings, stopKeptSettings, useKept } from "./keptSettings";

export function KeptSettings({ tauri }: { tauri: boolean }) {
  useEffect(() => {
    if (!tauri) return;
    loadKeptSettings().catch((err) => ui.toast("error", `The settings could not be read: ${errorMessage(err)}`));
    return stopKeptSettings;
  }, [tauri]);
  const notices = useKept((s) => s.notices);
  if (!notices.length) return null;
  return (
    <div className="open-failures">
      {notices.map((n, i) => (
        <div
          key={n.code + n.message}
          className="open-failure settings-notice"
          role="alert"
          data-testid="settings-notice"
          data-code={n.code}
        >
          <span className="sev warning" aria-hidden>
            ⚠
          </span>
          <span>{n.message}</span>
          <button
            type="button"
            className="link"
            aria-label="dismiss the notice about the settings"
            onClick={() => dismissSettingsNotice(i)}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
