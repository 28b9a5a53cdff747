//! The project registry's file name, shared by `registry infer` (which writes it) and the hints
//! that suggest running it.

/// The file name the fixes suggest (and the app writes) beside a document.
pub const PROJECT_REGISTRY: &str = "project.registry.json";
