//! The threads that run a large document's validation side by side ([`crate::validate`]).
//!
//! Rayon's own global pool would do, but its threads are started when it is first used, in
//! the middle of a validation, and the kernel of a vCPU-packing machine queues them on the
//! starting thread's core: one of the two waited 2.4 ms in a 10,000-node `validate` of 11 ms
//! (`perf sched timehist`, docs/BENCHMARKS.md, twenty-third session). This pool starts each
//! thread on a core of its own ([`trellis_threads::spawn_on_core`]), and is Trellis's own: a
//! program using this crate keeps rayon's global pool to configure as it likes.

use std::sync::OnceLock;

/// `op` on the pool, its `rayon::join`s on the pool's threads; on the calling thread when
/// the pool could not be started.
pub(crate) fn install<R: Send>(op: impl FnOnce() -> R + Send) -> R {
    match pool() {
        Some(pool) => pool.install(op),
        None => op(),
    }
}

/// The pool, started the first time it is asked for: as many threads as the process may use
/// cores (or `RAYON_NUM_THREADS`), as rayon's global pool would have.
fn pool() -> Option<&'static rayon::ThreadPool> {
    static POOL: OnceLock<Option<rayon::ThreadPool>> = OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .spawn_handler(|thread| {
                let index = thread.index();
                trellis_threads::spawn_on_core(format!("validate {index}"), index, || thread.run()).map(drop)
            })
            .build()
            .ok()
    })
    .as_ref()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_work_runs_on_the_pools_threads_free_to_use_every_core() {
        let (name, joined_on_pool, cores) = super::install(|| {
            let name = std::thread::current().name().map(str::to_owned);
            let (_, other) = rayon::join(|| (), || rayon::current_thread_index().is_some());
            (name, other, trellis_threads::allowed_core_count())
        });
        assert!(name.as_deref().is_some_and(|n| n.starts_with("validate ")), "{name:?}");
        assert!(joined_on_pool);
        assert_eq!(cores, trellis_threads::allowed_core_count());
    }
}
