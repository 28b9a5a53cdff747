//! Tauri's build step. The app's commands are declared here, so each one gets an
//! `allow-<command>` permission and the webview may call only what
//! `capabilities/main-window.json` grants (a test checks that the two agree).
include!("src/command_names.rs");

fn main() {
    let attributes =
        tauri_build::Attributes::new().app_manifest(tauri_build::AppManifest::new().commands(COMMANDS));
    if let Err(e) = tauri_build::try_build(attributes) {
        panic!("tauri build step failed: {e:#}");
    }
}
