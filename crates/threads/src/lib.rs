//! Threads started on a free core at once (issue 18).
//!
//! On the two-core virtual machines Trellis is measured on, and others whose kernel packs
//! vCPUs, a new thread (and a sleeping one woken) is queued on its parent's core, behind the
//! busy parent, until the next load balancing moves it: 1-3 ms later in about half of the
//! starts (a small program, and `perf sched timehist` of `trellis validate`;
//! docs/BENCHMARKS.md, twenty-third session). A second thread that reads the edges of a
//! 10,000-node document in 4 ms then finishes late, and the command with it.
//!
//! So a thread started here is allowed at first only on other cores than its parent's (the
//! kernel then starts it on one of them at once) and, once running, on all of them again: it
//! is never kept from a core. Where that cannot be done (not Linux, a single core, a failed
//! call), the kernel's choice stands: these are hints, never errors. Only starts are steered: a
//! pool's thread woken later may still wait behind its waker.
//!
//! - [`beside`]: one piece of work on a second thread while the caller does another, the
//!   thread borrowing what the caller can see (as a scoped thread).
//! - [`spawn_on_core`]: a thread of a pool, started on a core of its own.

mod beside;
mod cores;

pub use beside::{beside, Beside};

/// A thread named `name` running `work`, started on the `nth` allowed core counted from the
/// one after the caller's (round: with two cores, 0 is the other one and 1 the caller's),
/// free to run on every core once it runs. For the threads of a pool: each on its own core.
pub fn spawn_on_core(
    name: String,
    nth: usize,
    work: impl FnOnce() + Send + 'static,
) -> std::io::Result<std::thread::JoinHandle<()>> {
    let everywhere = cores::allowed();
    let handle = std::thread::Builder::new().name(name).spawn(move || {
        if let Some(set) = &everywhere {
            cores::allow_this_thread(set);
        }
        work();
    })?;
    if let Some(set) = &everywhere {
        cores::start_on(&handle, set, nth);
    }
    Ok(handle)
}

/// How many cores the calling thread may run on (where the kernel's set cannot be read, as many
/// as the standard library sees).
pub fn allowed_core_count() -> usize {
    cores::count(cores::allowed().as_ref())
}
