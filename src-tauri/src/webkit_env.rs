//! How WebKitGTK draws the window, chosen before GTK starts (Linux only).
//!
//! WebKitGTK composites the page through OpenGL. Without a GPU (no DRM render node, as in a
//! VM, a container or under Xvfb) that GL is emulated in software, and it costs more CPU per
//! frame than the whole 60 Hz frame budget even for an empty page (docs/BENCHMARKS.md). Drawing
//! without accelerated compositing paints the same page straight into the window for a fraction
//! of that. So when the machine has no render node and the user
//! has not chosen, Trellis turns compositing off. Machines with a GPU keep WebKit's default;
//! `WEBKIT_DISABLE_COMPOSITING_MODE=0` (or `=1`) in the environment always wins.

use std::path::Path;

/// The WebKit switch this module sets.
pub const SWITCH: &str = "WEBKIT_DISABLE_COMPOSITING_MODE";

/// Sets [`SWITCH`] to `1` when nobody chose and there is no GPU. Call it first thing in
/// `main`, while the process has one thread (setting the environment is only sound then).
pub fn choose_rendering() {
    if cfg!(target_os = "linux")
        && should_disable_compositing(&|k| std::env::var_os(k).is_some(), Path::new("/dev/dri"))
    {
        std::env::set_var(SWITCH, "1");
    }
}

/// The decision, apart from the process environment so it can be tested.
fn should_disable_compositing(is_set: &dyn Fn(&str) -> bool, dri: &Path) -> bool {
    // The user's own choice, or the other switch WebKit documents for the same problem.
    if is_set(SWITCH) || is_set("WEBKIT_DISABLE_DMABUF_RENDERER") {
        return false;
    }
    !has_render_node(dri)
}

/// A DRM render node (`renderD128`, ...) is what WebKit's GL needs to use a real GPU.
fn has_render_node(dri: &Path) -> bool {
    std::fs::read_dir(dri).is_ok_and(|entries| {
        entries.flatten().any(|e| e.file_name().to_string_lossy().starts_with("renderD"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_render_node_and_no_choice_turns_compositing_off() {
        let dir = tempfile::tempdir().expect("tmp");
        assert!(should_disable_compositing(&|_| false, &dir.path().join("missing")));
        assert!(should_disable_compositing(&|_| false, dir.path()), "an empty /dev/dri has no GPU");
        std::fs::write(dir.path().join("card0"), "").expect("card0");
        assert!(should_disable_compositing(&|_| false, dir.path()), "a card without a render node");
    }

    #[test]
    fn a_render_node_keeps_webkits_default() {
        let dir = tempfile::tempdir().expect("tmp");
        std::fs::write(dir.path().join("renderD128"), "").expect("renderD128");
        assert!(!should_disable_compositing(&|_| false, dir.path()));
    }

    #[test]
    fn the_users_choice_wins() {
        let dir = tempfile::tempdir().expect("tmp");
        assert!(!should_disable_compositing(&|k| k == SWITCH, dir.path()));
        assert!(!should_disable_compositing(&|k| k == "WEBKIT_DISABLE_DMABUF_RENDERER", dir.path()));
    }
}
