//! WebKitGTK settings for a one-page app (issue 8; figures in docs/BENCHMARKS.md, measured by
//! src-tauri/tests/perf): cache model `DocumentViewer` and no page cache. The app shows one
//! page that never navigates, so WebKit's memory cache of other pages and resources would only
//! hold memory. Measured effect on this page: within noise (WebKitWebProcess PSS with an empty
//! document 196 MB before, 194 MB after, under Xvfb). Accelerated compositing, the big one
//! (~100 MB), is chosen before GTK starts: see `webkit_env.rs` beside `main.rs`.

/// Applies the settings to the window's webview (on the main thread, as GTK wants).
#[cfg(target_os = "linux")]
pub fn apply<R: tauri::Runtime>(window: &tauri::WebviewWindow<R>) {
    let result = window.with_webview(|webview| {
        use webkit2gtk::{CacheModel, SettingsExt, WebContextExt, WebViewExt};
        let view = webview.inner();
        if let Some(settings) = WebViewExt::settings(&view) {
            settings.set_enable_page_cache(false);
        }
        if let Some(context) = view.context() {
            context.set_cache_model(CacheModel::DocumentViewer);
        }
    });
    if let Err(e) = result {
        eprintln!("trellis: cannot tune the webview: {e}");
    }
}

/// Other platforms: nothing to change.
#[cfg(not(target_os = "linux"))]
pub fn apply<R: tauri::Runtime>(_window: &tauri::WebviewWindow<R>) {}
