//! End-to-end tests through the real app: `cargo nextest run -p trellis-app --features e2e`
//! (build the UI first: `npm run build`). See `harness.rs` for how the app is started.

mod a11y;
mod canvas;
mod compare;
mod desktop;
mod drop;
mod export;
mod find;
mod first_minutes;
mod formats;
mod harness;
mod keyboard;
mod layout;
mod notes;
mod overview;
mod registry;
mod runs;
mod runtimes;
mod subgraphs;
mod tabs;
mod text_pane;
