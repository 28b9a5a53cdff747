//! Taking files dropped from the OS on the window (GTK): the drag is caught on WebKitGTK's
//! widget before WebKit sees it, and its `text/uri-list` handed to [`crate::file_drop`], which
//! says what each entry opens and opens it. A drag that starts in the page is WebKit's.

/// Takes OS file drops on the window's webview (GTK: WebKitGTK's widget).
#[cfg(target_os = "linux")]
pub fn attach(window: &tauri::WebviewWindow) {
    use tauri::Manager;

    let app = window.app_handle().clone();
    let attached = window.with_webview(move |webview| gtk_drop::connect(webview.inner(), app));
    if let Err(e) = attached {
        eprintln!("trellis: files dropped on the window will not open: {e}");
    }
}

/// Other platforms: not wired yet (Trellis ships for Linux; docs/desktop.md).
#[cfg(not(target_os = "linux"))]
pub fn attach(_window: &tauri::WebviewWindow) {}

#[cfg(target_os = "linux")]
mod gtk_drop {
    use std::cell::Cell;
    use std::rc::Rc;

    use gtk::gdk;
    use gtk::glib::object::{Cast, IsA, ObjectExt};
    use gtk::prelude::{DragContextExtManual, WidgetExt};
    use tauri::{AppHandle, Emitter};

    use crate::file_drop::{open_dropped, uri_list, FILE_DRAG};

    const URI_LIST: &str = "text/uri-list";

    /// A drag from outside this process that carries files. A drag the page started (HTML5
    /// drag and drop in the registry browser or on the canvas) has the webview as its source
    /// widget and is WebKit's.
    fn external_files(ctx: &gdk::DragContext) -> bool {
        ctx.drag_get_source_widget().is_none() && ctx.list_targets().iter().any(|a| a.name() == URI_LIST)
    }

    /// Connects before WebKit's own handlers (which run last): for an outside file drag,
    /// motion accepts a copy, the drop asks for the URI list, and the data opens the files;
    /// returning `true` (and stopping the data signal) keeps WebKit from seeing that drag.
    /// The widget is already a drop target: WebKit registered it for HTML5 drops.
    pub fn connect(webview: impl IsA<gtk::Widget> + Cast, app: AppHandle) {
        let widget: gtk::Widget = webview.upcast();
        let asked = Rc::new(Cell::new(false));
        // Whether an outside file drag is over the window (told to the UI once each way).
        let over = Rc::new(Cell::new(false));
        {
            let (app, over) = (app.clone(), over.clone());
            widget.connect_drag_motion(move |_, ctx, _, _, time| {
                if !external_files(ctx) {
                    return false;
                }
                ctx.drag_status(gdk::DragAction::COPY, time);
                if !over.replace(true) {
                    let _ = app.emit(FILE_DRAG, true);
                }
                true
            });
        }
        {
            // GTK sends `drag-leave` before `drag-drop` too: the hint goes either way.
            let (app, over) = (app.clone(), over.clone());
            widget.connect_drag_leave(move |_, _, _| {
                if over.replace(false) {
                    let _ = app.emit(FILE_DRAG, false);
                }
            });
        }
        {
            let asked = asked.clone();
            widget.connect_drag_drop(move |w, ctx, _, _, time| {
                if !external_files(ctx) {
                    return false;
                }
                asked.set(true);
                w.drag_get_data(ctx, &gdk::Atom::intern(URI_LIST), time);
                true
            });
        }
        widget.connect_drag_data_received(move |w, ctx, _, _, data, _, time| {
            if !asked.replace(false) {
                return;
            }
            w.stop_signal_emission_by_name("drag-data-received");
            let text = String::from_utf8_lossy(&data.data()).into_owned();
            let dropped = uri_list(&text);
            ctx.drag_finish(!dropped.files.is_empty(), false, time);
            open_dropped(&app, dropped);
        });
    }
}
