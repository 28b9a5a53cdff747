//! Shared helpers for the integration tests (paths to the corpus and to built binaries).

#![forbid(unsafe_code)]
