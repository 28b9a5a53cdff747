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
//! and the full grammar over the rest took most of the time of placing them (50 ms of a 51 MB
//! document, issue 18). The grammar is still checked where ranges are taken; what is stepped
//! over is only checked to be strings and balanced, nested brackets, which every text the
//! reader took is (a text that is not JSON at all gives no spans, as before).

use std::collections::HashMap;

use crate::json::MAX_DEPTH;

/// Where a document's parts are in its text, as the reader met them (byte offsets): the
/// document object, and its `nodes` and `edges` members with where each element starts. With
/// them, [`Targets::scan_placed`] scans only the elements the pointers go into.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ElementPlaces {
    /// The document object, `{` to `}`.
    pub root: (usize, usize),
    pub nodes: Option<ListPlaces>,
    pub edges: Option<ListPlaces>,
}

/// A top-level list member: its range (`"key": [...]`) and where each element starts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListPlaces {
    pub member: (usize, usize),
    pub starts: Vec<u32>,
}

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

    /// [`Targets::scan`], scanning only the elements of `nodes` and `edges` the pointers go
    /// into, from where `places` says they start: what the text holds elsewhere was read
    /// already. A pointer to anything else at the top (`/name`, `/channels/...`) makes it
    /// scan the whole text as `scan` does; so does a place that does not fit the text.
    pub fn scan_placed(&mut self, text: &str, places: &ElementPlaces) -> bool {
        let lists = [("nodes", &places.nodes), ("edges", &places.edges)];
        let root = &self.nodes[0];
        let elsewhere =
            root.keys.keys().any(|k| !lists.iter().any(|(name, list)| k == name && list.is_some()));
        if elsewhere || places.root.1 > text.len() {
            return self.rescan(text);
        }
        self.nodes[0].range = Some(places.root);
        for (name, list) in lists {
            let (Some(list), Some(&node)) = (list, self.nodes[0].keys.get(name)) else { continue };
            self.nodes[node].range = Some(list.member);
            let wanted: Vec<(usize, usize)> =
                self.nodes[node].indices.iter().map(|(&i, &n)| (i, n)).collect();
            for (index, child) in wanted {
                let Some(&start) = list.starts.get(index) else { continue };
                let start = start as usize;
                if start >= text.len() {
                    return self.rescan(text);
                }
                // An element of a top-level list is two levels down, as in a whole scan.
                let mut s = Scanner { text, b: text.as_bytes(), i: start, skip_unwanted: true };
                let Some(range) = s.value(Some(child), self, 2) else { return self.rescan(text) };
                self.nodes[child].range = Some(range);
            }
        }
        true
    }

    /// [`Targets::scan`] from nothing recorded (after a placed scan gave up half way).
    fn rescan(&mut self, text: &str) -> bool {
        for n in &mut self.nodes {
            n.range = None;
        }
        self.scan(text)
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

    /// Steps over the value at `self.i`, nested `depth` levels, looking only at its strings and
    /// brackets (see the module). Brackets must pair up, `{` with `}` and `[` with `]`, and
    /// nest at most [`MAX_DEPTH`] levels in all, as [`Scanner::value`] asks.
    fn skip(&mut self, depth: usize) -> Option<()> {
        match self.peek()? {
            b'"' => {
                self.string()?;
                return Some(());
            }
            b'{' | b'[' => {}
            _ => return self.scalar(),
        }
        let room = MAX_DEPTH.checked_sub(depth)?;
        // The open brackets, one bit each (1 for `{`): MAX_DEPTH levels fit in 128 bits.
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

    /// Ranges found from the reader's places and by a whole scan.
    fn placed_and_whole(text: &str, places: &ElementPlaces, pointers: &[Vec<String>]) -> [Vec<Range>; 2] {
        [true, false].map(|placed| {
            let mut t = Targets::new();
            let paths: Vec<Vec<usize>> = pointers.iter().map(|p| t.add(p)).collect();
            let scanned = if placed { t.scan_placed(text, places) } else { t.scan(text) };
            assert!(scanned);
            paths.iter().map(|p| t.deepest(p)).collect()
        })
    }

    #[test]
    fn the_readers_places_give_the_ranges_a_whole_scan_gives() {
        let small = crate::generate::generate_text(300, 5);
        // Large enough for the edges to be read on a second thread.
        let large = crate::generate::generate_text(4000, 9);
        let mut texts = vec![small, large];
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut folders = vec![root.join("tests/fixtures"), root.join("../../../shared/corpus")];
        while let Some(folder) = folders.pop() {
            for path in std::fs::read_dir(&folder).into_iter().flatten().flatten().map(|e| e.path()) {
                if path.is_dir() {
                    folders.push(path);
                } else if let Ok(text) = std::fs::read_to_string(&path) {
                    texts.push(text);
                }
            }
        }
        let mut read = 0;
        for text in &texts {
            let Some(parsed) = crate::read::parse_plain_spec(text) else { continue };
            let (Some(spec), Some(places)) = (parsed.spec, parsed.places) else { continue };
            read += 1;
            let mut pointers =
                vec![seg(""), seg("/nodes"), seg("/edges"), seg("/nodes/100000"), seg("/edges/x")];
            for (i, n) in spec.nodes.iter().enumerate().step_by(3) {
                pointers.push(seg(&format!("/nodes/{i}")));
                pointers.push(seg(&format!("/nodes/{i}/id")));
                if let Some(key) = n.config.keys().next() {
                    pointers.push(seg(&format!("/nodes/{i}/config/{key}")));
                }
            }
            for (j, e) in spec.edges.iter().enumerate().step_by(2) {
                pointers.push(seg(&format!("/edges/{j}/from")));
                if e.when.is_some() {
                    pointers.push(seg(&format!("/edges/{j}/when/channel")));
                }
            }
            let [placed, whole] = placed_and_whole(text, &places, &pointers);
            assert_eq!(placed, whole);
            assert!(placed.iter().flatten().count() > pointers.len() / 2);
            // A pointer elsewhere at the top: the whole text is scanned, with the same answer.
            pointers.push(seg("/name"));
            let [placed, whole] = placed_and_whole(text, &places, &pointers);
            assert_eq!(placed, whole);
        }
        assert!(read > 5, "only {read} documents were read with places");

        // Places that do not fit the text (another text's): the whole scan's answer.
        let (a, b) = (&texts[0], &texts[1]);
        let places = crate::read::parse_plain_spec(b).and_then(|p| p.places).expect("places");
        let pointers = [seg("/edges/3/to"), seg("/nodes/7/config")];
        let [placed, whole] = placed_and_whole(a, &places, &pointers);
        assert_eq!(placed, whole);
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
        assert!(!both_ways(&deep(MAX_DEPTH - 1), &wanted).0.is_empty());
        assert!(both_ways(&deep(MAX_DEPTH), &wanted).0.is_empty());
        assert_eq!(both_ways(&deep(MAX_DEPTH), &wanted).1, Vec::new(), "the full scan refuses it too");
    }
}
