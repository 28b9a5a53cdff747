//! A node id or a type name, and the hasher of the sets keyed by them.
//!
//! A document names every node, its type and both ends of every edge: as heap strings of a dozen
//! bytes each, they would be a large share of the allocations of reading it and of the model's
//! memory. An [`Id`] holds a name of up to 23 bytes in place ([`smol_str`]), and a longer one
//! behind a shared pointer, so reading a document allocates nothing per name. It reads as a
//! `str` and converts to and from `String`, so the model's fields keep the API they had as
//! strings.

use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use smol_str::SmolStr;

/// The hasher of the sets keyed by node ids that every validation builds: foldhash, seeded per
/// set (so a document cannot be made to collide), several times faster than SipHash on ids.
pub type IdHasher = foldhash::fast::RandomState;

/// A name, held in place when it is short.
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Id(SmolStr);

impl Id {
    pub fn new(s: &str) -> Id {
        Id(SmolStr::new(s))
    }

    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }
}

impl Deref for Id {
    type Target = str;
    fn deref(&self) -> &str {
        self.0.as_str()
    }
}

impl AsRef<str> for Id {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Id {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for Id {
    fn from(s: &str) -> Id {
        Id::new(s)
    }
}

impl From<String> for Id {
    fn from(s: String) -> Id {
        Id(SmolStr::from(s))
    }
}

impl From<Id> for String {
    fn from(id: Id) -> String {
        id.0.into()
    }
}

impl From<&Id> for String {
    fn from(id: &Id) -> String {
        id.as_str().to_owned()
    }
}

impl PartialEq<str> for Id {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Id {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Id {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<Id> for str {
    fn eq(&self, other: &Id) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Id> for &str {
    fn eq(&self, other: &Id) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<Id> for String {
    fn eq(&self, other: &Id) -> bool {
        self == other.as_str()
    }
}

/// As a string is printed: `"a"`.
impl fmt::Debug for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Id {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Id {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        SmolStr::deserialize(d).map(Id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_reads_compares_and_prints_as_its_string() {
        for s in [
            "",
            "a",
            "retrieve_0002",
            "a name of exactly 23 b.",
            "a name longer than twenty-three bytes, held apart",
        ] {
            let id = Id::from(s);
            let owned = String::from(s);
            assert_eq!(id, s);
            assert_eq!(id, owned);
            assert_eq!(&*id, s);
            assert_eq!(String::from(&id), s);
            assert_eq!(format!("{id:?}"), format!("{owned:?}"));
            assert_eq!(id.to_string(), s);
            assert_eq!(serde_json::to_string(&id).ok(), serde_json::to_string(s).ok());
            let back: Id =
                serde_json::from_str(&serde_json::to_string(s).unwrap_or_default()).unwrap_or_default();
            assert_eq!(back, id);
            let mut set = std::collections::HashSet::new();
            set.insert(id.clone());
            assert!(set.contains(s));
        }
    }
}
