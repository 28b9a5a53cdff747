//! Diagnostic codes of path analysis.

/// The price table is not valid (not JSON, wrong shape, negative price).
pub const BAD_PRICE_TABLE: &str = "graphmd/bad-price-table";
/// The document has errors, so its paths are not analysed.
pub const NOT_ANALYSABLE: &str = "graphmd/not-analysable";
/// Loop bounds are so large that unrolling would pass the work limit.
pub const TOO_LARGE_TO_ANALYSE: &str = "graphmd/too-large-to-analyse";
