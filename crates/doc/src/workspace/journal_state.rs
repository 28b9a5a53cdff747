//! What the workspace knows of each open document's journal entry: its key, what was last
//! written and when, and what writing it costs.

#[derive(Debug, Clone)]
pub(super) struct JournalState {
    pub(super) key: String,
    /// Session revision last journaled (None: never).
    pub(super) written: Option<u64>,
    pub(super) written_ms: u64,
    /// An entry exists on disk for this key.
    pub(super) on_disk: bool,
    /// How long the last entry took to take and write (wall time, ms). Taking it (the
    /// document written out) holds the workspace, so an edit arriving then waits.
    pub(super) write_cost_ms: u64,
    /// When a change not yet journaled was first seen.
    pub(super) pending_since_ms: Option<u64>,
}

/// What a journal entry of a document read from `source_len` bytes is expected to cost before
/// one was written: the first change of a large document then waits for the editing to rest as
/// later ones do. Without it the first entry would be taken at the next tick, while the user
/// goes on (and the save that usually follows an edit would wait for the document to be written
/// out).
pub(super) fn estimated_write_cost_ms(source_len: usize) -> u64 {
    /// Bytes of document text an entry costs per millisecond, as measured in the app.
    const BYTES_PER_MS: usize = 50_000;
    u64::try_from(source_len / BYTES_PER_MS).unwrap_or(u64::MAX)
}
