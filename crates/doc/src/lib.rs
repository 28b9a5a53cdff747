//! trellis-doc: documents as editing sessions. All file access goes through a trait.
