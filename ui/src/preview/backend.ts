// The browser preview (`npm run dev -w ui`, the Chromium and WebKit scripts, the screenshots):
// the UI on answers Rust recorded, computing none itself. `?doc=example,support` opens recorded
// documents (`?doc=big:5000`: the view of a generated document, written by the Rust bench crate
// into `recorded/big-5000.json`); `?scenario=NAME` opens a scenario's documents and replays the
// edits Rust answered for it, in order. Anything else (another edit, a save, an open) is refused
// with the reason, as the tests' replay refuses it.
import type { DocumentView } from "../bindings";
import text from "../test/fixtures/preview.json?raw";
import { RecordedBackend, type Step } from "../test/recorded";

/** What Rust wrote for the preview (crates/doc `tests/preview_fixtures.rs`). */
type Recorded = {
  documents: Record<string, DocumentView>;
  scenarios: Record<string, { documents: string[]; script: Step[] }>;
};

declare global {
  interface Window {
    /** The replay, for the browser scripts: what it refused (`unexpected`) and what is left. */
    __trellisPreview?: RecordedBackend;
  }
}

const recorded = JSON.parse(text) as Recorded;

export async function previewBackend(params: URLSearchParams): Promise<RecordedBackend> {
  const name = params.get("scenario");
  const scenario = name === null ? undefined : recorded.scenarios[name];
  if (name !== null && !scenario)
    throw new Error(`No recorded scenario "${name}" (recorded: ${Object.keys(recorded.scenarios).join(", ")}).`);
  const names = scenario?.documents ?? (params.get("doc") ?? "example").split(",");
  const backend = new RecordedBackend(await Promise.all(names.map(documentNamed)), scenario?.script ?? []);
  window.__trellisPreview = backend;
  return backend;
}

async function documentNamed(name: string): Promise<DocumentView> {
  const big = /^big:(\d+)$/.exec(name);
  if (big) {
    const answer = await fetch(`recorded/big-${big[1]}.json`);
    if (!answer.ok)
      throw new Error(
        `No recorded view of ${big[1]} nodes: write it with \`cargo run -p trellis-bench --example record_view -- ${big[1]} target/recorded-views/big-${big[1]}.json\`.`,
      );
    return (await answer.json()) as DocumentView;
  }
  const view = recorded.documents[name];
  if (!view) throw new Error(`No recorded document "${name}" (recorded: ${Object.keys(recorded.documents).join(", ")}, big:N).`);
  return view;
}
