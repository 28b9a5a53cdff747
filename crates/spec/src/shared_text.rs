//! A document's text, shared by the model read from it.
//!
//! Configs are kept as their text ([`crate::Config`]). Read from a `&str`, each config's text is
//! copied into a string of its own: an allocation per node, and fresh memory about the size of
//! the configs. Read from a [`SharedText`], a config holds a counted reference to the document's
//! text and where its object is in it, and nothing is copied: the text outlives the model that
//! refers to it, whoever holds it (a `String`, or the command line's map of the file).

use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// A text held by counted reference; cloning shares it.
#[derive(Clone)]
pub struct SharedText(Arc<dyn AsRef<str> + Send + Sync>);

impl SharedText {
    /// Shares `text` (a `String`, or anything else that holds a `str` and can cross threads).
    pub fn new(text: impl AsRef<str> + Send + Sync + 'static) -> SharedText {
        SharedText(Arc::new(text))
    }

    pub fn as_str(&self) -> &str {
        (*self.0).as_ref()
    }

    /// Whether `part` is a slice of this very text (not merely equal to one), and where.
    pub(crate) fn offset_of(&self, part: &str) -> Option<usize> {
        let whole = self.as_str();
        let start = (part.as_ptr() as usize).checked_sub(whole.as_ptr() as usize)?;
        (start.checked_add(part.len())? <= whole.len()).then_some(start)
    }
}

impl From<String> for SharedText {
    fn from(text: String) -> Self {
        SharedText::new(text)
    }
}

impl Deref for SharedText {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Debug for SharedText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SharedText({} bytes)", self.as_str().len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slice_of_the_text_is_found_and_an_equal_copy_is_not() {
        let text = SharedText::from("{\"a\": {\"b\": 1}}".to_owned());
        let inner = &text.as_str()[6..14];
        assert_eq!(inner, "{\"b\": 1}");
        assert_eq!(text.offset_of(inner), Some(6));
        assert_eq!(text.offset_of(&text.as_str()[15..]), Some(15));
        let copy = inner.to_owned();
        assert_eq!(text.offset_of(&copy), None);
        let shared = text.clone();
        assert_eq!(shared.offset_of(inner), Some(6));
    }
}
