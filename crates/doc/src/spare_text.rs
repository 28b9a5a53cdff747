//! A buffer kept for a large document's next canonical text (issue 18).
//!
//! A save writes the whole canonical text (51 MB at 100,000 nodes) into one buffer. Into fresh
//! memory that costs about three times what it costs into memory already touched, since the
//! kernel zeroes each new page first (in the app, 128 against 45 ms). So a large document
//! keeps a touched buffer for its next save: the text the last save wrote, once the save after
//! it replaces it as the session's source; before the first save, one prepared on a thread of
//! its own a moment after the open ([`SpareText::prepare`]). A small document keeps none. The
//! cost is one more text's worth of memory per large open document.

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use trellis_spec::writer::room_for;

/// From this length of text on, a document keeps a spare buffer.
pub(crate) const KEPT_FROM: usize = 1 << 20;

/// How long after the open the first buffer is prepared: the app draws the document first.
const PREPARED_AFTER: Duration = Duration::from_millis(1500);

/// The spare buffer of one document, shared with the thread that prepares it.
#[derive(Default)]
pub(crate) struct SpareText(Arc<Mutex<Option<Vec<u8>>>>);

impl SpareText {
    /// The buffer, emptied, when one is kept with room for a text of `len` bytes.
    pub(crate) fn take(&self, len: usize) -> Option<Vec<u8>> {
        let mut slot = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        slot.take_if(|buffer| buffer.capacity() >= room_for(len))
    }

    /// Keeps `buffer` (a text no longer needed) for the next save, when it is a large one.
    pub(crate) fn keep(&self, mut buffer: Vec<u8>) {
        if buffer.capacity() >= KEPT_FROM {
            buffer.clear();
            *self.0.lock().unwrap_or_else(PoisonError::into_inner) = Some(buffer);
        }
    }

    /// Prepares a buffer for a text of `len` bytes on a thread of its own, after a moment,
    /// unless one is kept by then (a save came first). Nothing for a small text.
    pub(crate) fn prepare(&self, len: usize) {
        if len < KEPT_FROM {
            return;
        }
        let slot = Arc::clone(&self.0);
        let prepare = move || {
            std::thread::sleep(PREPARED_AFTER);
            // Closed meanwhile (the only other holder is gone), or a save came first.
            if Arc::strong_count(&slot) == 1 || slot.lock().unwrap_or_else(PoisonError::into_inner).is_some()
            {
                return;
            }
            let mut buffer = Vec::with_capacity(room_for(len));
            // Written once, so every page the text will take is touched here rather than in
            // the save (`vec![0; len]` would map zeroed pages without touching them).
            buffer.resize(len, 0);
            buffer.clear();
            let mut kept = slot.lock().unwrap_or_else(PoisonError::into_inner);
            if kept.is_none() {
                *kept = Some(buffer);
            }
        };
        // Without a thread the first save writes into fresh memory, as any save would.
        let _ = std::thread::Builder::new().name("spare text".into()).spawn(prepare);
    }

    /// Whether a buffer is kept (tests).
    #[cfg(test)]
    pub(crate) fn is_kept(&self) -> bool {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).is_some()
    }
}

impl fmt::Debug for SpareText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kept = self.0.lock().map(|s| s.as_ref().map(Vec::capacity)).unwrap_or(None);
        f.debug_tuple("SpareText").field(&kept).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_buffer_is_kept_and_given_for_a_text_it_has_room_for() {
        let spare = SpareText::default();
        spare.keep(Vec::with_capacity(1000));
        assert!(!spare.is_kept(), "a small buffer is not kept");
        let mut large = Vec::with_capacity(room_for(2 << 20));
        large.extend_from_slice(b"old text");
        spare.keep(large);
        assert!(spare.is_kept());
        assert!(spare.take(4 << 20).is_none(), "no room for a text twice as long");
        assert!(spare.is_kept(), "still kept for a text it fits");
        let taken = spare.take(2 << 20).expect("room for it");
        assert!(taken.is_empty(), "emptied when kept");
        assert!(spare.take(2 << 20).is_none(), "given once");
    }

    #[test]
    fn a_buffer_is_prepared_for_a_large_text_only() {
        let spare = SpareText::default();
        spare.prepare(1000);
        spare.prepare(KEPT_FROM);
        let waited = std::time::Instant::now();
        while !spare.is_kept() && waited.elapsed() < PREPARED_AFTER * 20 {
            std::thread::sleep(Duration::from_millis(20));
        }
        let taken = spare.take(KEPT_FROM).expect("prepared");
        assert!(taken.capacity() >= room_for(KEPT_FROM));
    }
}
