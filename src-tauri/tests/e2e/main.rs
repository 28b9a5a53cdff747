//! End-to-end tests through the real app: `cargo nextest run -p trellis-app --features e2e`
//! (build the UI first: `npm run build`). See `harness.rs` for how the app is started.

mod a11y;
mod canvas;
mod compare;
mod desktop;
mod drop;
mod export;
mod find;
mod formats;
mod harness;
mod keyboard;
mod notes;
mod overview;
mod registry;
mod runtimes;
mod subgraphs;
mod tabs;
