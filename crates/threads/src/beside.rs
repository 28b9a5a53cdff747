//! Work on a second thread, started on another core than the caller's (see the crate).
//!
//! The thread may borrow what the caller can see, as a scoped thread does: it is always joined
//! before [`beside`] returns, also when the caller's side panics (the [`Beside`] is dropped in
//! `beside`'s frame, and only lent to the caller).

// The workspace denies unsafe code; a thread that borrows (`spawn_unchecked`) is an exception,
// here.
#![allow(unsafe_code)]

use std::cell::Cell;
use std::marker::PhantomData;
use std::thread::JoinHandle;

/// The second thread, as the caller's side sees it: its answer, taken at most once.
pub struct Beside<'a, T> {
    handle: Cell<Option<JoinHandle<T>>>,
    /// What the thread borrows lives at least this long.
    borrows: PhantomData<&'a ()>,
}

impl<T> Beside<'_, T> {
    /// The thread's answer, waited for; `None` when no thread could be started or the answer
    /// was taken already. A panic on the thread goes on here.
    pub fn join(&self) -> Option<T> {
        let handle = self.handle.take()?;
        Some(handle.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
    }
}

impl<T> std::fmt::Debug for Beside<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The handle is behind a `Cell`: whether it is still there is not looked at.
        f.debug_struct("Beside").finish_non_exhaustive()
    }
}

impl<T> Drop for Beside<'_, T> {
    fn drop(&mut self) {
        if let Some(handle) = self.handle.take() {
            // Not taken: waited for all the same (it borrows). Its panic goes on, as a scoped
            // thread's does, unless this side is panicking already.
            if let Err(e) = handle.join() {
                if !std::thread::panicking() {
                    std::panic::resume_unwind(e);
                }
            }
        }
    }
}

/// `here(&beside)`, with `work` running on a thread named `name` meanwhile. When no thread can
/// be started, `beside.join()` answers `None` and `work` is not run.
pub fn beside<'a, T: Send + 'a, R>(
    name: &str,
    work: impl FnOnce() -> T + Send + 'a,
    here: impl FnOnce(&Beside<'a, T>) -> R,
) -> R {
    let everywhere = crate::cores::allowed();
    let work = move || {
        // Started: free to go anywhere again.
        if let Some(set) = &everywhere {
            crate::cores::allow_this_thread(set);
        }
        work()
    };
    // SAFETY: the thread borrows for `'a` at most, and is joined before this function returns:
    // the `Beside` holding it lives in this frame (its drop joins it, on unwinding too) and is
    // only lent to `here`, behind a shared reference, so it can be neither moved nor forgotten.
    let handle = unsafe { std::thread::Builder::new().name(name.to_owned()).spawn_unchecked(work) }.ok();
    if let (Some(handle), Some(set)) = (&handle, &everywhere) {
        crate::cores::start_elsewhere(handle, set);
    }
    let beside = Beside { handle: Cell::new(handle), borrows: PhantomData };
    here(&beside)
}

#[cfg(test)]
mod tests {
    use super::beside;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    #[test]
    fn the_answer_is_taken_once_and_the_work_may_borrow() {
        let words = ["a".to_owned(), "bc".to_owned()];
        let (first, second) = beside(
            "test",
            || words.iter().map(String::len).sum::<usize>(),
            |work| (work.join(), work.join()),
        );
        assert_eq!((first, second), (Some(3), None));
    }

    #[test]
    fn work_not_taken_is_waited_for_before_returning() {
        let done = AtomicBool::new(false);
        beside(
            "test",
            || {
                std::thread::sleep(Duration::from_millis(50));
                done.store(true, Ordering::SeqCst);
            },
            |_| {},
        );
        assert!(done.load(Ordering::SeqCst));
    }

    #[test]
    fn a_panic_on_the_thread_goes_on_where_it_is_joined_or_dropped() {
        let joined =
            std::panic::catch_unwind(|| beside("test", || panic!("on the thread"), |work| work.join()));
        let dropped = std::panic::catch_unwind(|| beside("test", || panic!("on the thread"), |_| 7));
        for outcome in [joined.map(|_| ()), dropped.map(|_| ())] {
            let message = outcome.expect_err("the panic went on").downcast::<&str>().map(|m| *m);
            assert_eq!(message.ok(), Some("on the thread"));
        }
    }

    #[test]
    fn a_panic_here_still_waits_for_the_thread_and_is_the_one_that_goes_on() {
        let done = AtomicBool::new(false);
        let outcome = std::panic::catch_unwind(|| {
            beside(
                "test",
                || {
                    std::thread::sleep(Duration::from_millis(50));
                    done.store(true, Ordering::SeqCst);
                },
                |_| panic!("here"),
            )
        });
        assert!(done.load(Ordering::SeqCst));
        let message = outcome.expect_err("the panic went on").downcast::<&str>().map(|m| *m);
        assert_eq!(message.ok(), Some("here"));
    }

    #[test]
    fn the_thread_runs_with_every_core_of_its_parent_allowed() {
        let parent = crate::allowed_core_count();
        let on_thread = beside("test", crate::allowed_core_count, |work| work.join());
        assert_eq!(on_thread, Some(parent));
    }
}
