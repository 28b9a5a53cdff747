//! Finding where JSON Pointers are in a JSON text, for all of them in one pass.
//!
//! The pointers wanted are put in a trie; one scan of the text (bytes, no tree built, nothing
//! allocated but for a key with escapes on a wanted path) records the byte range of every trie
//! node it meets. A finding then takes the range of the deepest node of its pointer that was
//! found. So placing N findings costs one pass over the text whatever N is, and memory
//! proportional to the pointers, not to the document (a 50 MB document has no AST in memory).
//!
//! Ranges are those an editor shows: a pointer to an object member spans `"key": value`; to an
//! array element, the element; the root, the root value.

use std::collections::HashMap;

use crate::json::MAX_DEPTH;

/// The pointers wanted, as a trie of their segments.
#[derive(Debug, Default)]
pub struct Targets {
    nodes: Vec<TrieNode>,
}

#[derive(Debug, Default)]
struct TrieNode {
    /// Children by object key.
    keys: HashMap<String, usize>,
    /// Children by array index (the segments that read as one).
    indices: HashMap<usize, usize>,
    /// Where the scan found this node.
    range: Option<(usize, usize)>,
}

impl Targets {
    pub fn new() -> Self {
        Targets { nodes: vec![TrieNode::default()] }
    }

    /// Adds a pointer (as unescaped segments); returns its path of trie nodes, root first.
    pub fn add(&mut self, segments: &[String]) -> Vec<usize> {
        let mut path = vec![0];
        let mut at = 0;
        for seg in segments {
            let next = match self.nodes[at].keys.get(seg) {
                Some(&n) => n,
                None => {
                    let n = self.nodes.len();
                    self.nodes.push(TrieNode::default());
                    self.nodes[at].keys.insert(seg.clone(), n);
                    if let Ok(i) = seg.parse::<usize>() {
                        self.nodes[at].indices.insert(i, n);
                    }
                    n
                }
            };
            path.push(next);
            at = next;
        }
        path
    }

    /// The range of the deepest node of `path` that the scan found.
    pub fn deepest(&self, path: &[usize]) -> Option<(usize, usize)> {
        path.iter().map_while(|&n| self.nodes[n].range).last()
    }

    /// Scans `text` once, recording the range of every wanted node met. `false` (and nothing
    /// trustworthy recorded) when the text is not one JSON value or is nested too deep.
    pub fn scan(&mut self, text: &str) -> bool {
        let mut s = Scanner { text, b: text.as_bytes(), i: 0 };
        s.ws();
        let Some(range) = s.value(Some(0), self, 0) else { return false };
        s.ws();
        if s.i != s.b.len() {
            return false;
        }
        self.nodes[0].range = Some(range);
        true
    }
}

struct Scanner<'a> {
    text: &'a str,
    b: &'a [u8],
    i: usize,
}

impl Scanner<'_> {
    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.b.get(self.i) {
            self.i += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    /// Expects `c` (after whitespace) and steps over it.
    fn eat(&mut self, c: u8) -> Option<()> {
        self.ws();
        (self.peek()? == c).then(|| self.i += 1)
    }

    /// One value starting at `self.i` (no leading whitespace); its byte range. `node` is the
    /// trie node this value is, when it is on a wanted path.
    fn value(&mut self, node: Option<usize>, t: &mut Targets, depth: usize) -> Option<(usize, usize)> {
        let start = self.i;
        match self.peek()? {
            b'{' => self.object(node, t, depth + 1)?,
            b'[' => self.array(node, t, depth + 1)?,
            b'"' => {
                self.string()?;
            }
            _ => self.scalar()?,
        }
        Some((start, self.i))
    }

    fn object(&mut self, node: Option<usize>, t: &mut Targets, depth: usize) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.i += 1;
        self.ws();
        if self.peek()? == b'}' {
            self.i += 1;
            return Some(());
        }
        loop {
            self.ws();
            let key_start = self.i;
            let escaped = self.string()?;
            let child = match node {
                Some(n) if !t.nodes[n].keys.is_empty() => {
                    let raw = self.text.get(key_start..self.i)?;
                    if escaped {
                        let key: String = serde_json::from_str(raw).ok()?;
                        t.nodes[n].keys.get(&key).copied()
                    } else {
                        t.nodes[n].keys.get(&raw[1..raw.len() - 1]).copied()
                    }
                }
                _ => None,
            };
            self.eat(b':')?;
            self.ws();
            let (_, end) = self.value(child, t, depth)?;
            if let Some(c) = child {
                // A repeated key (refused by the reader) would take the last one, as serde_json.
                t.nodes[c].range = Some((key_start, end));
            }
            self.ws();
            match self.peek()? {
                b',' => self.i += 1,
                b'}' => {
                    self.i += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    fn array(&mut self, node: Option<usize>, t: &mut Targets, depth: usize) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.i += 1;
        self.ws();
        if self.peek()? == b']' {
            self.i += 1;
            return Some(());
        }
        let mut index = 0usize;
        loop {
            self.ws();
            let child = node.and_then(|n| t.nodes[n].indices.get(&index).copied());
            let range = self.value(child, t, depth)?;
            if let Some(c) = child {
                t.nodes[c].range = Some(range);
            }
            index += 1;
            self.ws();
            match self.peek()? {
                b',' => self.i += 1,
                b']' => {
                    self.i += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// A string at `self.i`; steps past its closing quote. Whether it has escapes.
    fn string(&mut self) -> Option<bool> {
        if self.peek()? != b'"' {
            return None;
        }
        self.i += 1;
        let mut escaped = false;
        loop {
            self.i += memchr::memchr2(b'"', b'\\', self.b.get(self.i..)?)?;
            if self.b[self.i] == b'"' {
                self.i += 1;
                return Some(escaped);
            }
            escaped = true;
            self.i += 2;
        }
    }

    /// A number, `true`, `false` or `null`: up to the next delimiter.
    fn scalar(&mut self) -> Option<()> {
        let start = self.i;
        while let Some(c) = self.peek() {
            if matches!(c, b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r' | b':' | b'"' | b'[' | b'{') {
                break;
            }
            self.i += 1;
        }
        (self.i > start).then_some(())
    }
}
