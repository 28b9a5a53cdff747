//! The diagnostic codes of reading and showing runs (listed in docs/diagnostics.md).

/// The record cannot be read at all (not UTF-8, not JSON, an SQLite file that does not open).
pub const UNREADABLE: &str = "runs/unreadable";
/// No reader recognises the record.
pub const UNKNOWN_FORMAT: &str = "runs/unknown-format";
/// A line or value that is not JSON (too deeply nested included): skipped, or the whole
/// record refused when it is one document.
pub const SYNTAX: &str = "runs/syntax";
/// The file ends in the middle of a line or value (a writer that crashed): read up to the cut.
pub const TRUNCATED: &str = "runs/truncated";
/// The record is larger than Trellis reads.
pub const TOO_LARGE: &str = "runs/too-large";
/// An event or span of a kind the reader does not know: kept and shown raw.
pub const UNKNOWN_EVENT: &str = "runs/unknown-event";
/// A field of the wrong kind (a `seq` that is not a number, a time that does not parse).
pub const BAD_FIELD: &str = "runs/bad-field";
/// Events out of their order or missing (a gap in Ilmek's `seq`, an end with no start).
pub const OUT_OF_ORDER: &str = "runs/out-of-order";
/// The record ends without the run's end (still running, or the runtime threw).
pub const NO_END: &str = "runs/no-end";
/// The record holds several runs; one is shown.
pub const MANY_RUNS: &str = "runs/many-runs";
/// The run asked for is not in the record.
pub const NO_SUCH_RUN: &str = "runs/no-such-run";
/// The record holds no step.
pub const NO_STEPS: &str = "runs/no-steps";
/// The runtime answered with an error instead of a run (a saved `{"error": ...}`).
pub const ERROR_ANSWER: &str = "runs/error-answer";
/// Something the record cannot say, told once (a checkpoint's state is per superstep, not
/// per node; an OTLP file in protobuf form).
pub const LIMITATION: &str = "runs/limitation";
/// The run's graph is not the document's (another hash, nodes the document lacks).
pub const OTHER_GRAPH: &str = "runs/other-graph";
/// No node the run visited is in the document.
pub const UNMATCHED: &str = "runs/unmatched";
/// Two runs compared: where they part.
pub const DIVERGED: &str = "runs/diverged";
