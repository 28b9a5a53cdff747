//! Which cores a thread may run on (see the crate for why): the calls to the kernel.

// The workspace denies unsafe code; the affinity calls are an exception, here.
#![allow(unsafe_code)]

pub(crate) use imp::{allow_this_thread, allowed, count, start_elsewhere, start_on};

#[cfg(target_os = "linux")]
mod imp {
    use std::os::unix::thread::JoinHandleExt;
    use std::thread::JoinHandle;

    /// A set of cores.
    pub(crate) type Cores = libc::cpu_set_t;

    const SET_SIZE: usize = std::mem::size_of::<Cores>();

    /// The cores the calling thread may run on, when they can be known.
    pub(crate) fn allowed() -> Option<Cores> {
        // SAFETY: the set is plain data, written by the call.
        unsafe {
            let mut set: Cores = std::mem::zeroed();
            (libc::sched_getaffinity(0, SET_SIZE, &mut set) == 0).then_some(set)
        }
    }

    /// Let the calling thread run on `set`.
    pub(crate) fn allow_this_thread(set: &Cores) {
        // SAFETY: a set of ours, only read by the call. A failure leaves the thread where it
        // may run already, which is no error.
        unsafe {
            libc::sched_setaffinity(0, SET_SIZE, set);
        }
    }

    /// Let the new thread start on any core of `allowed` (the caller's set) but the caller's
    /// (when there is another).
    pub(crate) fn start_elsewhere<T>(thread: &JoinHandle<T>, allowed: &Cores) {
        let Some((mut set, here)) = allowed_and_here(allowed) else { return };
        // SAFETY: plain calls on a set of ours; `here` is a core of the set (checked).
        unsafe {
            libc::CPU_CLR(here, &mut set);
        }
        allow(thread, &set);
    }

    /// Let the new thread start on the `nth` core of `allowed` after the caller's, counted round
    /// (0: the next one; as many as there are cores: the caller's own).
    pub(crate) fn start_on<T>(thread: &JoinHandle<T>, allowed: &Cores, nth: usize) {
        let Some((set, here)) = allowed_and_here(allowed) else { return };
        let size = libc::CPU_SETSIZE as usize;
        // SAFETY: plain calls on a set of ours, with indexes below its size.
        let round: Vec<usize> =
            (1..=size).map(|k| (here + k) % size).filter(|&c| unsafe { libc::CPU_ISSET(c, &set) }).collect();
        // `round` holds `here` at least (checked by `allowed_and_here`).
        let core = round[nth % round.len()];
        // SAFETY: as above.
        let only = unsafe {
            let mut only: Cores = std::mem::zeroed();
            libc::CPU_SET(core, &mut only);
            only
        };
        allow(thread, &only);
    }

    /// The allowed cores and the caller's, when there are two or more and the caller's is one.
    fn allowed_and_here(allowed: &Cores) -> Option<(Cores, usize)> {
        let set = *allowed;
        // SAFETY: plain calls; the index is checked against the set's size first.
        unsafe {
            let here = usize::try_from(libc::sched_getcpu()).ok()?;
            let fits = here < libc::CPU_SETSIZE as usize;
            (fits && libc::CPU_ISSET(here, &set) && libc::CPU_COUNT(&set) >= 2).then_some((set, here))
        }
    }

    /// How many cores `set` holds (when it is not known, as many as the standard library sees).
    pub(crate) fn count(set: Option<&Cores>) -> usize {
        // SAFETY: a plain call on a set of ours.
        let counted = set.and_then(|set| usize::try_from(unsafe { libc::CPU_COUNT(set) }).ok());
        counted
            .filter(|&n| n > 0)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get))
    }

    /// The calling thread's core alone.
    #[cfg(test)]
    pub(crate) fn this_core_only() -> Option<Cores> {
        // SAFETY: plain calls; the index is checked against the set's size first.
        unsafe {
            let here =
                usize::try_from(libc::sched_getcpu()).ok().filter(|&c| c < libc::CPU_SETSIZE as usize)?;
            let mut only: Cores = std::mem::zeroed();
            libc::CPU_SET(here, &mut only);
            Some(only)
        }
    }

    fn allow<T>(thread: &JoinHandle<T>, set: &Cores) {
        // SAFETY: the thread is not joined (the handle is borrowed), so its `pthread_t` is
        // valid; the set is ours and only read. A failure leaves the kernel's choice.
        unsafe {
            libc::pthread_setaffinity_np(thread.as_pthread_t(), SET_SIZE, set);
        }
    }
}

/// Elsewhere the kernel's choice stands.
#[cfg(not(target_os = "linux"))]
mod imp {
    use std::thread::JoinHandle;

    pub(crate) type Cores = ();

    pub(crate) fn allowed() -> Option<Cores> {
        None
    }
    pub(crate) fn allow_this_thread(_: &Cores) {}
    pub(crate) fn start_elsewhere<T>(_: &JoinHandle<T>, _: &Cores) {}
    pub(crate) fn start_on<T>(_: &JoinHandle<T>, _: &Cores, _: usize) {}
    pub(crate) fn count(_: Option<&Cores>) -> usize {
        std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
    }
}

/// What the calls do where they do something.
#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::sync::mpsc;

    /// A thread that waits for a word, and the cores it may run on until then.
    fn held(start: impl FnOnce(&std::thread::JoinHandle<()>)) -> usize {
        let (go, wait) = mpsc::channel::<()>();
        let (tell, told) = mpsc::channel::<usize>();
        let thread = std::thread::spawn(move || {
            wait.recv().ok();
            tell.send(crate::allowed_core_count()).ok();
        });
        start(&thread);
        go.send(()).ok();
        let count = told.recv().expect("the thread tells");
        thread.join().expect("the thread ends");
        count
    }

    #[test]
    fn a_thread_started_elsewhere_may_run_on_every_core_but_one() {
        let all = crate::allowed_core_count();
        // One core: nothing to choose, the thread keeps it.
        let set = allowed().expect("the kernel's set");
        assert_eq!(held(|t| start_elsewhere(t, &set)), if all >= 2 { all - 1 } else { all });
    }

    #[test]
    fn a_thread_started_on_a_core_may_run_on_that_one_only() {
        let all = crate::allowed_core_count();
        for nth in 0..3 {
            let set = allowed().expect("the kernel's set");
            assert_eq!(held(|t| start_on(t, &set, nth)), if all >= 2 { 1 } else { all });
        }
    }

    #[test]
    fn a_running_thread_allows_itself_every_core_again() {
        let all = allowed();
        let (count_held, count_freed) = std::thread::scope(|s| {
            s.spawn(|| {
                let before = crate::allowed_core_count();
                if let Some(one) = imp::this_core_only() {
                    allow_this_thread(&one);
                }
                let held = crate::allowed_core_count();
                if let Some(all) = &all {
                    allow_this_thread(all);
                }
                assert_eq!(crate::allowed_core_count(), before);
                (held, crate::allowed_core_count())
            })
            .join()
            .expect("the thread ends")
        });
        assert_eq!(count_held, 1);
        assert_eq!(count_freed, crate::allowed_core_count());
    }
}
