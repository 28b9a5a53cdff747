//! The Trellis desktop app.

#![forbid(unsafe_code)]
// No console window on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

// mimalloc serves the document model's many small allocations faster than glibc.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod webkit_env;

fn main() {
    // `--version` and `--help` answer before GTK starts: no window, no display needed.
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(text) = trellis_app::command_line::answer_without_window(&args) {
        println!("{}", text.trim_end());
        return;
    }
    webkit_env::choose_rendering();
    trellis_app::run();
}
