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
//!
//! A value no wanted pointer goes into is stepped over looking at its strings and brackets
//! only ([`Scanner::skip`]): the findings of a large document point into a few of its elements,
//! and the full grammar over the rest is most of the work of placing them. The grammar is still
//! checked where ranges are taken; what is stepped over is only checked to be strings and
//! balanced, nested brackets, which every text the reader took is (a text that is not JSON at
//! all gives no spans).
//!
//! The scan refuses nesting deeper than [`MAX_NESTING`], so it never recurses deeper than a
//! text the reader took.

use std::collections::HashMap;

/// The deepest nesting scanned: serde_json's nesting limit (`json::MAX_DEPTH`), which every
/// text the reader took is within.
pub const MAX_NESTING: usize = 128;

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
        self.scan_with(text, true)
    }

    fn scan_with(&mut self, text: &str, skip_unwanted: bool) -> bool {
        let mut s = Scanner { text, b: text.as_bytes(), i: 0, skip_unwanted };
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
    /// Step over unwanted values with [`Scanner::skip`] (false only to test that it changes
    /// no range).
    skip_unwanted: bool,
}

/// What [`Scanner::skip`] looks at: 1 a string, 2 an opening bracket, 3 a closing one.
const SKIP_CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'"' as usize] = 1;
    t[b'{' as usize] = 2;
    t[b'[' as usize] = 2;
    t[b'}' as usize] = 3;
    t[b']' as usize] = 3;
    t
};

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
        if node.is_none() && self.skip_unwanted {
            self.skip(depth)?;
            return Some((start, self.i));
        }
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
        if depth > MAX_NESTING {
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
        if depth > MAX_NESTING {
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

    /// Steps over the value at `self.i`, nested `depth` levels, looking only at its strings and
    /// brackets (see the module). Brackets must pair up, `{` with `}` and `[` with `]`, and
    /// nest at most [`MAX_NESTING`] levels in all, as [`Scanner::value`] asks.
    fn skip(&mut self, depth: usize) -> Option<()> {
        match self.peek()? {
            b'"' => {
                self.string()?;
                return Some(());
            }
            b'{' | b'[' => {}
            _ => return self.scalar(),
        }
        let room = MAX_NESTING.checked_sub(depth)?;
        // The open brackets, one bit each (1 for `{`): MAX_NESTING levels fit in 128 bits.
        let (mut open, mut level) = (0u128, 0usize);
        loop {
            let c = *self.b.get(self.i)?;
            match SKIP_CLASS[usize::from(c)] {
                0 => self.i += 1,
                1 => {
                    self.string()?;
                }
                2 => {
                    if level >= room {
                        return None;
                    }
                    open = (open << 1) | u128::from(c == b'{');
                    level += 1;
                    self.i += 1;
                }
                _ => {
                    let was_object = open & 1 == 1;
                    if level == 0 || was_object != (c == b'}') {
                        return None;
                    }
                    open >>= 1;
                    level -= 1;
                    self.i += 1;
                    if level == 0 {
                        return Some(());
                    }
                }
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

#[cfg(test)]
mod tests {
    use super::*;

    type Range = Option<(usize, usize)>;

    /// Ranges found with and without stepping over unwanted values.
    fn both_ways(text: &str, pointers: &[Vec<String>]) -> (Vec<Range>, Vec<Range>) {
        let mut ranges = Vec::new();
        for skip in [true, false] {
            let mut t = Targets::new();
            let paths: Vec<Vec<usize>> = pointers.iter().map(|p| t.add(p)).collect();
            let scanned = t.scan_with(text, skip);
            ranges.push(if scanned { paths.iter().map(|p| t.deepest(p)).collect() } else { Vec::new() });
        }
        let full = ranges.pop().unwrap_or_default();
        (ranges.pop().unwrap_or_default(), full)
    }

    fn seg(p: &str) -> Vec<String> {
        p.split('/').skip(1).map(str::to_owned).collect()
    }

    #[test]
    fn stepping_over_unwanted_values_changes_no_range() {
        let text = crate::generate::generate_text(400, 3);
        let doc: serde_json::Value = serde_json::from_str(&text).expect("json");
        let mut pointers =
            vec![seg(""), seg("/name"), seg("/channels"), seg("/nodes/400"), seg("/edges/0/nope")];
        for (i, n) in doc["nodes"].as_array().into_iter().flatten().enumerate().step_by(7) {
            pointers.push(seg(&format!("/nodes/{i}")));
            if let Some(key) = n["config"].as_object().and_then(|c| c.keys().next_back()) {
                pointers.push(seg(&format!("/nodes/{i}/config/{key}")));
            }
        }
        for j in (0..doc["edges"].as_array().map_or(0, Vec::len)).step_by(5) {
            pointers.push(seg(&format!("/edges/{j}/to")));
            pointers.push(seg(&format!("/edges/{j}/when/channel")));
        }
        let (skipped, full) = both_ways(&text, &pointers);
        assert_eq!(skipped.len(), pointers.len());
        assert!(skipped.iter().filter(|r| r.is_some()).count() > pointers.len() / 2);
        assert_eq!(skipped, full);

        // Compact text, escapes, nested lists and strings full of brackets, in skipped parts.
        let odd =
            r#"{"a":[{"x":"]}\"[{"},[[1,{"y":[]}],"\\"]],"b":{"c":[0,{"d":"}"}],"e":"\u00e9"},"z":[1,2,3]}"#;
        let pointers = [seg("/b/c/1/d"), seg("/z/2"), seg("/a/1"), seg("/b/e"), seg("/q")];
        let (skipped, full) = both_ways(odd, &pointers);
        assert_eq!(skipped, full);
        assert_eq!(skipped[1], Some((odd.len() - 3, odd.len() - 2)));
    }

    #[test]
    fn what_is_stepped_over_must_still_pair_its_brackets_and_nest_within_the_limit() {
        let wanted = [seg("/z")];
        for bad in
            [r#"{"a":[1,2},"z":1}"#, r#"{"a":{"b":[}},"z":1}"#, r#"{"a":"open,"z":1}"#, r#"{"a":[[1],"z":1}"#]
        {
            let (skipped, _) = both_ways(bad, &wanted);
            assert!(skipped.is_empty(), "{bad} was taken for JSON");
        }
        let deep = |n: usize| format!("{{\"a\":{}1{},\"z\":1}}", "[".repeat(n), "]".repeat(n));
        assert!(!both_ways(&deep(MAX_NESTING - 1), &wanted).0.is_empty());
        assert!(both_ways(&deep(MAX_NESTING), &wanted).0.is_empty());
        assert_eq!(both_ways(&deep(MAX_NESTING), &wanted).1, Vec::new(), "the full scan refuses it too");
    }
}
