//! The Trellis desktop app.

#![forbid(unsafe_code)]
// No console window on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

// mimalloc serves the document model's many small allocations faster than glibc.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod webkit_env;

fn main() {
    webkit_env::choose_rendering();
    trellis_app::run();
}
