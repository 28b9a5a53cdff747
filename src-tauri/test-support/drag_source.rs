//! A file manager's drag source, for the end-to-end tests (tests/e2e/drop.rs): a small GTK 3
//! window at a given place on the X display that offers the given URIs as `text/uri-list` when
//! dragged, exactly as a file manager does. The test moves the pointer with XTest (libxdo):
//! press on this window, move onto Trellis, release: a real XDND drag and drop between two
//! processes, which is what a user's drop from the desktop is.
//!
//! Usage: `trellis-test-drag-source X Y URI...`. Prints `ready` once the window is on screen,
//! `dragged` when a drop target asked for the data, `end` when the drag is over, then quits
//! (or after 60 seconds).

#[cfg(target_os = "linux")]
fn main() {
    use std::io::Write;

    use gtk::gdk;
    use gtk::glib;
    use gtk::prelude::*;

    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(x), Some(y)) =
        (args.first().and_then(|a| a.parse().ok()), args.get(1).and_then(|a| a.parse().ok()))
    else {
        eprintln!("usage: trellis-test-drag-source X Y URI...");
        std::process::exit(2);
    };
    let uris: Vec<String> = args[2..].to_vec();
    if gtk::init().is_err() {
        eprintln!("trellis-test-drag-source: no display");
        std::process::exit(1);
    }
    let say = |what: &str| {
        println!("{what}");
        let _ = std::io::stdout().flush();
    };

    let window = gtk::Window::new(gtk::WindowType::Toplevel);
    window.set_title("drag source");
    window.set_default_size(100, 100);
    window.move_(x, y);
    let area = gtk::EventBox::new();
    area.add(&gtk::Label::new(Some("files")));
    window.add(&area);
    let targets = [gtk::TargetEntry::new("text/uri-list", gtk::TargetFlags::OTHER_APP, 0)];
    area.drag_source_set(gdk::ModifierType::BUTTON1_MASK, &targets, gdk::DragAction::COPY);
    area.connect_drag_data_get(move |_, _, data, _, _| {
        let refs: Vec<&str> = uris.iter().map(String::as_str).collect();
        data.set_uris(&refs);
        say("dragged");
    });
    area.connect_drag_end(move |_, _| {
        say("end");
        gtk::main_quit();
    });
    window.connect_map_event(move |_, _| {
        // Mapped is not yet drawn: a moment for the server to have it where it was put.
        glib::timeout_add_local_once(std::time::Duration::from_millis(200), move || say("ready"));
        glib::Propagation::Proceed
    });
    window.connect_destroy(|_| gtk::main_quit());
    glib::timeout_add_local_once(std::time::Duration::from_secs(60), gtk::main_quit);
    window.show_all();
    gtk::main();
}

#[cfg(not(target_os = "linux"))]
fn main() {
    eprintln!("trellis-test-drag-source: X11 only");
    std::process::exit(1);
}
