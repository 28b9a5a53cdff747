//! The fast path of reading a GraphSpec text: one hand-written pass over the bytes that builds
//! the model directly, for the document every tool writes (issue 18).
//!
//! It reads only what it is sure of: a top-level object of `name`, `channels`, `nodes` and
//! `edges`; nodes of `id` (a string), `type` (a string or null) and `config` (an object, kept as
//! its text); edges of `from` and `to` (strings) and `when` (an object); each key at most once,
//! strings that are ids or keys without escapes. That is exactly the document the reader would
//! read with no finding at all. For anything else (an unknown field, a `null` config, a
//! repeated key, an escaped id, a syntax error, deep nesting, ...) it gives up with `None`, and
//! the caller reads the text the serde way ([`crate::read_stream`]), which gives every
//! diagnostic with its wording and place. So this path can only be faster, never different:
//! test `fast_path_reads_what_the_serde_path_reads` compares the two on the corpus, the fixtures
//! and generated documents.
//!
//! What it checks itself: the JSON grammar everywhere (strict: numbers, literals, escapes,
//! no control characters in strings, no trailing commas, nothing after the value), and nesting
//! (it gives up well before the parser's limit), repeated keys (a config's keys compared as
//! written: an escaped key gives up), and escapes that would not decode (a lone surrogate). A
//! config is read in that same pass, keeping its text as [`crate::config::check_raw`] keeps it
//! after serde_json on the other path. `channels` is small and goes to the checked parser
//! ([`crate::json::parse`]) and the [`Reader`] as on the serde path; a `when` of plain
//! scalars is built here, value for value what the checked parser builds, any other `when`
//! goes to that parser.

mod canonical;

pub(crate) use canonical::is_canonical;
#[cfg(test)]
pub(crate) use canonical::{is_canonical_split, Split, THREE_WAY_MIDDLE, TWO_WAY_MIDDLE};

use crate::config::{self, Config};
use crate::json;
use crate::model::{
    identical_configs, identical_whens, operator_index, ChannelNames, EdgeSpec, GraphSpec, Id, NodeSpec,
    Predicate,
};
use crate::read::Reader;
use crate::shared_text::SharedText;
use crate::span_locator::{ElementPlaces, ListPlaces};
use trellis_threads::{beside, Beside};

/// Nesting this path reads at most below the document (the parser's limit is
/// [`json::MAX_DEPTH`] in all; a deeper value goes to the serde path, which words it).
const MAX_NESTING: usize = json::MAX_DEPTH - 8;

/// The document, when the text is one this path reads (see the module): then the serde path
/// would give the same document and no finding.
#[cfg(test)]
pub(crate) fn read(text: &str) -> Option<GraphSpec> {
    read_keyed(text, None).map(|(spec, ..)| spec)
}

/// The document, whether the object had any key (`{}` is not detected as a GraphSpec), and
/// where its nodes and edges are in the text.
///
/// A large text is read on two threads when it has the line that starts the edges in the
/// canonical form (`\n  "edges": `): this one reads from the start, the other reads the edge
/// list from that line at the same time (the edges are about two fifths of a generated
/// document's text, and its fresh memory is zeroed by the kernel on that thread too). Reading
/// a value depends on nothing before it, so the other thread's answer is what this one would
/// have read there; it is taken only if this one arrives at a top-level `edges` list that
/// starts at that very byte, else it is dropped and the list read here (a line like that inside
/// a config, say). Strings hold no raw line break, so the line is never inside one.
///
/// The nodes are not split as [`reads_as`] splits them: reading builds the model, most of its
/// cost is fresh memory, and a third thread made the command line no faster on two cores
/// (`trellis validate` of 100,000 nodes 118-140 ms with it, 114-129 without, and 6 MB more at
/// the peak; docs/BENCHMARKS.md, sixteenth session).
///
/// `shared`: the same text, held by counted reference (`text` is `shared.as_str()`); the
/// configs then refer to it instead of each keeping a copy of its text
/// ([`crate::shared_text`]).
pub(crate) fn read_keyed(
    text: &str,
    shared: Option<&SharedText>,
) -> Option<(GraphSpec, bool, ElementPlaces)> {
    // Only the very same text is referred to (`Config::in_text` checks each config too).
    let shared = shared.filter(|s| std::ptr::eq(s.as_str(), text));
    if text.len() < PARALLEL_FROM {
        return read_top(text, None, shared);
    }
    // The line is looked for on that thread too: this one starts on the nodes at once.
    let edges = move || {
        let at = edges_ahead(text)?;
        let mut p = P::new(text);
        p.i = at;
        let (mut edges, mut starts) = (Vec::new(), Vec::new());
        let read = p.edges(&mut edges, &mut starts).map(|()| (edges, starts, p.i));
        Some((at, read))
    };
    // No thread to be had: all of it here.
    beside("read edges", edges, |edges| read_top(text, Some(edges), shared))
}

/// Whether reading `text` gives exactly `spec` ([`GraphSpec::identical`]) with no finding,
/// decided as the text is read, with nothing built but a changed config or a condition: a
/// save checks the text it wrote this way (`trellis_doc::save`). Built and compared, the model of
/// 100,000 nodes took 150-300 ms of the save in the app, most of it fresh memory.
///
/// It reads exactly what [`read_keyed`] reads, through the same code (`each_node`,
/// `each_edge`), and compares each element with the one at its place in `spec` as
/// `GraphSpec::identical` does; when `read_keyed` would give up, or a top-level key is missing
/// (the writer writes all four), or anything differs, the answer is false, which says nothing:
/// the caller then reads the text the full way and words what it finds. As in `read_keyed`, a
/// large text is compared on three threads: its edges from the line that starts them, its
/// nodes from the middle node of `spec` (found where the writer puts it,
/// `writer::node_start`), taken only when the comparison from the start arrives there after
/// exactly the nodes before it.
pub(crate) fn reads_as(text: &str, spec: &GraphSpec) -> bool {
    if text.len() < PARALLEL_FROM {
        return same_top(text, spec, SameAhead::default()).is_some();
    }
    // The middle node where the writer put it (the text is canonical when this is asked).
    let middle = spec.nodes.len() / 2;
    let nodes_at = (middle > 0)
        .then(|| crate::writer::node_start(text.as_bytes(), &spec.nodes[middle]))
        .flatten()
        .map(|at| at + crate::writer::NODE_SEPARATOR.len());
    // The line that starts the edges is looked for on that thread too (as in `read_keyed`).
    let edges = move || {
        let at = edges_ahead(text)?;
        let mut p = P::new(text);
        p.i = at;
        Some((at, p.same_edges(&spec.edges).then_some(p.i)))
    };
    beside("compare edges", edges, |edges| match nodes_at {
        Some(at) => {
            let nodes = move || {
                let mut p = P::new(text);
                p.i = at;
                p.same_rest_of_nodes(&mut spec.nodes[middle..].iter())?;
                Some(p.i)
            };
            beside("compare nodes", nodes, |nodes| {
                same_top(text, spec, SameAhead { edges: Some(edges), nodes: Some((at, middle, nodes)) })
            })
        }
        None => same_top(text, spec, SameAhead { edges: Some(edges), nodes: None }),
    })
    .is_some()
}

/// Where the line that starts the edges is, and where they end when they are the same there.
type EdgesSame = (usize, Option<usize>);

/// What other threads compare of a large text (see [`reads_as`]): where the edges start and
/// where they end when they are the same; where the middle node starts, its index, and where
/// the nodes end when they are the same from there on.
#[derive(Default)]
struct SameAhead<'t> {
    edges: Option<&'t Beside<'t, Option<EdgesSame>>>,
    nodes: Option<(usize, usize, &'t Beside<'t, Option<usize>>)>,
}

/// [`reads_as`] from the start of the text.
fn same_top(text: &str, spec: &GraphSpec, ahead: SameAhead<'_>) -> Option<()> {
    u32::try_from(text.len()).ok()?;
    let mut p = P::new(text);
    let mut seen = 0u8;
    p.ws();
    p.fields(|p, key| {
        let bit = match key {
            "name" => {
                let name = if p.peek()? == b'n' {
                    p.literal(b"null")?;
                    None
                } else {
                    Some(p.plain_str()?)
                };
                (name == spec.name.as_deref()).then_some(1)?
            }
            "channels" => {
                // As `read_top` reads them (a handful).
                let v = json::parse(p.value_slice()?).ok()?;
                let mut r = Reader::new();
                let mut read = GraphSpec::default();
                r.top_level_field("channels", v, &mut read);
                if !r.finish(None).diagnostics.is_empty() {
                    return None;
                }
                let same = read.channels.len() == spec.channels.len()
                    && read.channels.iter().zip(&spec.channels).all(|(a, b)| a == b);
                same.then_some(2)?
            }
            "nodes" => {
                let mut want = spec.nodes.iter();
                let stop = ahead.nodes.as_ref().map(|(at, ..)| *at);
                let stopped =
                    p.each_node(stop, |p, _, node| p.same_node(&node, want.next()?).then_some(()))?;
                match (stopped, ahead.nodes) {
                    // The rest compared on the other thread, from the node it was given.
                    (true, Some((_, middle, rest))) if spec.nodes.len() - want.len() == middle => {
                        p.i = rest.join().flatten()?;
                    }
                    // Stopped after another number of nodes (an earlier node with the middle
                    // one's id was found for it): the rest compared here.
                    (true, _) => p.same_rest_of_nodes(&mut want)?,
                    (false, _) => want.next().is_none().then_some(())?,
                }
                4
            }
            "edges" => {
                match ahead.edges.and_then(Beside::join).flatten() {
                    Some((at, same)) if at == p.i => p.i = same?,
                    _ => p.same_edges(&spec.edges).then_some(())?,
                }
                8
            }
            _ => return None,
        };
        seen |= bit;
        Some(bit)
    })?;
    p.ws();
    (p.i == p.b.len() && seen == 15).then_some(())
}

/// From this size of text on, [`read_keyed`] reads the edges on a second thread.
const PARALLEL_FROM: usize = 1 << 20;

/// Where the edge list of a canonical text starts (its `[`), when the text has the line that
/// starts it: the first such line. Searched forwards, over the nodes: `memmem`'s forward search
/// is vectorised and its backward one is not (over the edges from the end, it took 2.3 of the
/// 17 ms of `fmt --check` at 10,000 nodes, before any other thread could start). A line like it
/// in a hand-written config comes first and is never taken (see [`read_keyed`]): the edges are
/// then read by the pass from the start.
fn edges_ahead(text: &str) -> Option<usize> {
    // The line the writer starts the edges with: its key, after the comma.
    let line = &crate::writer::EDGES_KEY[1..];
    memchr::memmem::find(text.as_bytes(), line).map(|at| at + line.len())
}

/// Where the first byte of `word` (eight bytes of text, the first in the lowest bits) that a
/// string cannot hold as it is comes: a quote, a backslash or a control character. The
/// classic tests for a zero byte (`(v - 0x01..) & !v & 0x80..`) and a byte below 0x20 flag
/// the first such byte exactly; only bytes after it can be flagged wrongly, by the borrow.
#[inline]
fn first_special(word: u64) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let quote = word ^ (ONES * u64::from(b'"'));
    let backslash = word ^ (ONES * u64::from(b'\\'));
    let found = (quote.wrapping_sub(ONES) & !quote)
        | (backslash.wrapping_sub(ONES) & !backslash)
        | (word.wrapping_sub(ONES * 0x20) & !word);
    let found = found & HIGH;
    (found != 0).then(|| found.trailing_zeros() as usize / 8)
}

/// The edges read on the other thread: where their list starts, if the text has the line, and
/// what reading them there gave (the edges, where each starts and where the list ends).
type EdgesAhead<'a> = Beside<'a, Option<(usize, Option<EdgesRead>)>>;

/// An edge list as read: the edges, where each starts, and where the list ends.
type EdgesRead = (Vec<EdgeSpec>, Vec<u32>, usize);

fn read_top<'a>(
    text: &'a str,
    ahead: Option<&EdgesAhead<'_>>,
    shared: Option<&'a SharedText>,
) -> Option<(GraphSpec, bool, ElementPlaces)> {
    // Offsets are kept as `u32` (four bytes an element); a larger text is not read here.
    u32::try_from(text.len()).ok()?;
    let mut p = match shared {
        // The configs refer to the text: no compact copy of theirs is made.
        Some(shared) => P { shared: Some(shared), ..P::checking(text) },
        None => P::new(text),
    };
    let mut spec = GraphSpec::default();
    let mut places = ElementPlaces::default();
    p.ws();
    let root_start = p.i;
    p.eat(b'{')?;
    let mut seen = 0u8;
    p.ws();
    if p.peek()? == b'}' {
        p.i += 1;
    } else {
        loop {
            p.ws();
            let key_start = p.i;
            let key = p.plain_str()?;
            p.ws();
            p.eat(b':')?;
            p.ws();
            let bit = match key {
                "name" => {
                    if p.peek()? == b'n' {
                        p.literal(b"null")?;
                    } else {
                        spec.name = Some(p.plain_str()?.to_owned());
                    }
                    1
                }
                "channels" => {
                    p.channels(&mut spec)?;
                    2
                }
                "nodes" => {
                    let mut starts = Vec::new();
                    p.nodes(&mut spec, &mut starts)?;
                    places.nodes = Some(ListPlaces { member: (key_start, p.i), starts });
                    4
                }
                "edges" => {
                    match ahead.and_then(EdgesAhead::join).flatten() {
                        Some((at, read)) if at == p.i => {
                            // Read there by the other thread (see `read_keyed`).
                            let (list, starts, end) = read?;
                            spec.edges = list;
                            p.i = end;
                            places.edges = Some(ListPlaces { member: (key_start, p.i), starts });
                        }
                        _ => {
                            let mut starts = Vec::new();
                            p.edges(&mut spec.edges, &mut starts)?;
                            places.edges = Some(ListPlaces { member: (key_start, p.i), starts });
                        }
                    }
                    8
                }
                _ => return None,
            };
            if seen & bit != 0 {
                return None;
            }
            seen |= bit;
            p.ws();
            match p.next()? {
                b',' => {}
                b'}' => break,
                _ => return None,
            }
        }
    }
    places.root = (root_start, p.i);
    p.ws();
    (p.i == p.b.len()).then_some((spec, seen != 0, places))
}

/// A node as read, before anything is built of it.
struct NodeRead<'a> {
    id: &'a str,
    type_name: Option<&'a str>,
    config: Option<ConfigRead<'a>>,
}

/// A config as read: its text, whether it holds a number worth the analysis's walk, and
/// whether it had whitespace (then its compact text is in `P::compact` until the next config).
struct ConfigRead<'a> {
    raw: &'a str,
    odd_numbers: bool,
    spaced: bool,
}

struct P<'a> {
    t: &'a str,
    b: &'a [u8],
    i: usize,
    /// A config's text without whitespace, built here and then copied at its size.
    compact: String,
    /// The keys of the objects open in a config, to refuse a repeated one.
    keys: Vec<&'a str>,
    /// Whether a config's compact text is built as it is read (not when only checking the
    /// text, `canonical`, or when the configs refer to the text).
    compacting: bool,
    /// The text, when the configs read refer to it rather than keep a copy.
    shared: Option<&'a SharedText>,
    /// The channel names of the conditions read so far.
    channels: ChannelNames<'a>,
}

/// Keys an object of a config may have on this path (more go to the serde path).
const MAX_KEYS: usize = 64;

impl<'a> P<'a> {
    fn new(text: &'a str) -> Self {
        P {
            t: text,
            b: text.as_bytes(),
            i: 0,
            compact: String::new(),
            keys: Vec::new(),
            compacting: true,
            shared: None,
            channels: ChannelNames::default(),
        }
    }

    /// A reader that only checks configs, without building their compact text.
    fn checking(text: &'a str) -> Self {
        P { compacting: false, ..P::new(text) }
    }

    /// Adds `c` to the compact text of the config being read.
    #[inline]
    fn keep(&mut self, c: char) {
        if self.compacting {
            self.compact.push(c);
        }
    }

    /// Adds `s` to the compact text of the config being read.
    #[inline]
    fn keep_str(&mut self, s: &str) {
        if self.compacting {
            self.compact.push_str(s);
        }
    }

    /// Where the reading is, as an offset into a text `read_top` has found to fit in `u32`.
    fn at(&self) -> u32 {
        u32::try_from(self.i).unwrap_or(u32::MAX)
    }

    #[inline]
    fn ws(&mut self) {
        loop {
            match self.b.get(self.i) {
                // An indent, eight spaces at a time (most of a pretty text's whitespace).
                Some(b' ') => {
                    while self.b.get(self.i..self.i + 8) == Some(b"        ") {
                        self.i += 8;
                    }
                    while self.b.get(self.i) == Some(&b' ') {
                        self.i += 1;
                    }
                }
                Some(b'\n' | b'\r' | b'\t') => self.i += 1,
                _ => return,
            }
        }
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    #[inline]
    fn next(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.i += 1;
        Some(c)
    }

    #[inline]
    fn eat(&mut self, c: u8) -> Option<()> {
        (self.next()? == c).then_some(())
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        let end = self.i + word.len();
        (self.b.get(self.i..end)? == word).then(|| self.i = end)
    }

    /// A string with no escapes (and no control characters): its contents.
    #[inline]
    fn plain_str(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let start = self.i;
        self.skip_plain();
        match self.next()? {
            b'"' => self.t.get(start..self.i - 1),
            _ => None,
        }
    }

    /// Steps over the bytes of a string that need no second look: all but a quote, a
    /// backslash and a control character. Eight bytes at a time: strings are most of a
    /// document's bytes.
    #[inline]
    fn skip_plain(&mut self) {
        while let Some(chunk) = self.b.get(self.i..self.i + 8) {
            let word = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
            match first_special(word) {
                Some(k) => {
                    self.i += k;
                    return;
                }
                None => self.i += 8,
            }
        }
        while let Some(&c) = self.b.get(self.i) {
            if c == b'"' || c == b'\\' || c < 0x20 {
                return;
            }
            self.i += 1;
        }
    }

    /// Any string: escapes checked for their form, and a surrogate escape must be half of a
    /// pair (serde_json refuses a lone one).
    fn any_str(&mut self) -> Option<()> {
        self.eat(b'"')?;
        loop {
            self.skip_plain();
            match self.next()? {
                b'"' => return Some(()),
                b'\\' => match self.next()? {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {}
                    b'u' => match self.hex4()? {
                        0xd800..=0xdbff => {
                            // A surrogate pair, or serde_json refuses it.
                            self.literal(b"\\u")?;
                            if !(0xdc00..=0xdfff).contains(&self.hex4()?) {
                                return None;
                            }
                        }
                        0xdc00..=0xdfff => return None,
                        _ => {}
                    },
                    _ => return None,
                },
                c if c < 0x20 => return None,
                _ => {}
            }
        }
    }

    /// Four hex digits, as a number.
    fn hex4(&mut self) -> Option<u32> {
        let mut n = 0;
        for _ in 0..4 {
            n = n * 16 + char::from(self.next()?).to_digit(16)?;
        }
        Some(n)
    }

    fn digits(&mut self) -> Option<()> {
        let start = self.i;
        while let Some(b'0'..=b'9') = self.peek() {
            self.i += 1;
        }
        (self.i > start).then_some(())
    }

    /// A number, by JSON's grammar.
    fn number(&mut self) -> Option<()> {
        if self.peek()? == b'-' {
            self.i += 1;
        }
        match self.next()? {
            b'0' => {}
            b'1'..=b'9' => {
                while let Some(b'0'..=b'9') = self.peek() {
                    self.i += 1;
                }
            }
            _ => return None,
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            self.digits()?;
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.i += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.i += 1;
            }
            self.digits()?;
        }
        Some(())
    }

    /// Steps over one well-formed value at `self.i` (no leading whitespace), nested at most
    /// `room` more levels.
    fn value(&mut self, room: usize) -> Option<()> {
        match self.peek()? {
            b'"' => self.any_str(),
            b'{' => {
                let room = room.checked_sub(1)?;
                self.i += 1;
                self.ws();
                if self.peek()? == b'}' {
                    self.i += 1;
                    return Some(());
                }
                loop {
                    self.ws();
                    self.any_str()?;
                    self.ws();
                    self.eat(b':')?;
                    self.ws();
                    self.value(room)?;
                    self.ws();
                    match self.next()? {
                        b',' => {}
                        b'}' => return Some(()),
                        _ => return None,
                    }
                }
            }
            b'[' => {
                let room = room.checked_sub(1)?;
                self.i += 1;
                self.ws();
                if self.peek()? == b']' {
                    self.i += 1;
                    return Some(());
                }
                loop {
                    self.ws();
                    self.value(room)?;
                    self.ws();
                    match self.next()? {
                        b',' => {}
                        b']' => return Some(()),
                        _ => return None,
                    }
                }
            }
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'n' => self.literal(b"null"),
            _ => self.number(),
        }
    }

    /// The text of the value at `self.i`, stepped over.
    fn value_slice(&mut self) -> Option<&'a str> {
        let start = self.i;
        self.value(MAX_NESTING)?;
        self.t.get(start..self.i)
    }

    /// The members of an object, each through `member` (key, then the value at `self.i`).
    fn members(&mut self, mut member: impl FnMut(&mut Self, &'a str) -> Option<()>) -> Option<()> {
        self.eat(b'{')?;
        self.ws();
        if self.peek()? == b'}' {
            self.i += 1;
            return Some(());
        }
        loop {
            self.ws();
            let key = self.plain_str()?;
            self.ws();
            self.eat(b':')?;
            self.ws();
            member(self, key)?;
            self.ws();
            match self.next()? {
                b',' => {}
                b'}' => return Some(()),
                _ => return None,
            }
        }
    }

    /// The members of an object of known fields: `field` reads one and answers its bit; a
    /// field seen twice (a duplicate key) gives up, for the serde path to report.
    fn fields(&mut self, mut field: impl FnMut(&mut Self, &'a str) -> Option<u8>) -> Option<()> {
        let mut seen = 0u8;
        self.members(|p, key| {
            let bit = field(p, key)?;
            if seen & bit != 0 {
                return None;
            }
            seen |= bit;
            Some(())
        })
    }

    /// The elements of an array, each through `element` (at `self.i`).
    fn elements(&mut self, element: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        self.elements_until(None, element).map(drop)
    }

    /// [`P::elements`], stopping before an element that starts at `stop` (then true, with
    /// `self.i` there).
    fn elements_until(
        &mut self,
        stop: Option<usize>,
        element: impl FnMut(&mut Self) -> Option<()>,
    ) -> Option<bool> {
        self.eat(b'[')?;
        self.ws();
        if self.peek()? == b']' {
            self.i += 1;
            return Some(false);
        }
        self.rest_of_elements(stop, element)
    }

    /// The elements of an array from the one at `self.i` to the array's end (see
    /// [`P::elements_until`]).
    fn rest_of_elements(
        &mut self,
        stop: Option<usize>,
        mut element: impl FnMut(&mut Self) -> Option<()>,
    ) -> Option<bool> {
        loop {
            self.ws();
            if stop == Some(self.i) {
                return Some(true);
            }
            element(self)?;
            self.ws();
            match self.next()? {
                b',' => {}
                b']' => return Some(false),
                _ => return None,
            }
        }
    }

    /// A node's config object at `self.i`, in one pass: its grammar, repeated keys and escapes
    /// checked as [`config::check_raw`] checks them after serde_json, and the same text kept
    /// (without the whitespace between tokens).
    fn config(&mut self) -> Option<ConfigRead<'a>> {
        let start = self.i;
        self.compact.clear();
        let mut odd_numbers = false;
        let mut spaced = false;
        self.config_value(MAX_NESTING, &mut odd_numbers, &mut spaced)?;
        let raw = self.t.get(start..self.i)?;
        Some(ConfigRead { raw, odd_numbers, spaced })
    }

    /// The text a config read last is kept as: without its whitespace, when it had any.
    fn config_text(&self, c: &ConfigRead<'a>) -> &str {
        if c.spaced {
            &self.compact
        } else {
            c.raw
        }
    }

    /// The config of the node read last (its compact text is still in `self.compact`).
    fn config_of(&self, c: &ConfigRead<'a>) -> Config {
        if let Some(text) = self.shared {
            return Config::in_text(text, c.raw, c.odd_numbers);
        }
        let compact = c.spaced.then(|| Box::<str>::from(self.compact.as_str()));
        Config::from_check(c.raw, config::RawCheck { odd_numbers: c.odd_numbers, compact })
    }

    fn config_ws(&mut self, spaced: &mut bool) {
        let at = self.i;
        self.ws();
        *spaced |= self.i != at;
    }

    fn config_value(&mut self, room: usize, odd: &mut bool, spaced: &mut bool) -> Option<()> {
        let start = self.i;
        match self.peek()? {
            b'"' => self.any_str()?,
            b'{' => {
                let room = room.checked_sub(1)?;
                self.i += 1;
                self.keep('{');
                self.config_ws(spaced);
                if self.peek()? == b'}' {
                    self.i += 1;
                    self.keep('}');
                    return Some(());
                }
                let base = self.keys.len();
                loop {
                    self.config_ws(spaced);
                    let key_start = self.i;
                    let key = self.plain_str()?;
                    if self.keys[base..].contains(&key) || self.keys.len() - base >= MAX_KEYS {
                        return None;
                    }
                    self.keys.push(key);
                    self.keep_str(self.t.get(key_start..self.i)?);
                    self.config_ws(spaced);
                    self.eat(b':')?;
                    self.keep(':');
                    self.config_ws(spaced);
                    self.config_value(room, odd, spaced)?;
                    self.config_ws(spaced);
                    match self.next()? {
                        b',' => self.keep(','),
                        b'}' => {
                            self.keep('}');
                            self.keys.truncate(base);
                            return Some(());
                        }
                        _ => return None,
                    }
                }
            }
            b'[' => {
                let room = room.checked_sub(1)?;
                self.i += 1;
                self.keep('[');
                self.config_ws(spaced);
                if self.peek()? == b']' {
                    self.i += 1;
                    self.keep(']');
                    return Some(());
                }
                loop {
                    self.config_ws(spaced);
                    self.config_value(room, odd, spaced)?;
                    self.config_ws(spaced);
                    match self.next()? {
                        b',' => self.keep(','),
                        b']' => {
                            self.keep(']');
                            return Some(());
                        }
                        _ => return None,
                    }
                }
            }
            b't' => self.literal(b"true")?,
            b'f' => self.literal(b"false")?,
            b'n' => self.literal(b"null")?,
            _ => {
                self.number()?;
                let len = self.i - start;
                if len > 15 || self.b[start..self.i].iter().any(|c| matches!(c, b'e' | b'E')) {
                    *odd = true;
                }
            }
        }
        let token = self.t.get(start..self.i)?;
        self.keep_str(token);
        Some(())
    }

    /// A `when` object at `self.i`, as the checked parser gives it. Flat ones of plain strings,
    /// numbers without an exponent and literals (with lists of those) are built here, their
    /// channel's name shared with the conditions read before ([`ChannelNames`]); any other goes
    /// through [`json::parse`] of its text.
    fn predicate(&mut self) -> Option<Predicate> {
        use serde_json::Value;
        let start = self.i;
        let mut entries: Vec<(&'a str, Value)> = Vec::new();
        // A plain string under a first key `channel`: its text, made a value only below.
        let mut channel = None;
        let flat = self.members(|p, key| {
            if entries.iter().any(|(k, _)| *k == key) {
                return None;
            }
            let v = if p.peek()? == b'[' {
                let mut items = Vec::new();
                p.elements(|p| {
                    items.push(p.scalar()?);
                    Some(())
                })?;
                // At its length, as the checked parser keeps a list (a document holds many).
                items.shrink_to_fit();
                Value::Array(items)
            } else if key == "channel" && entries.is_empty() && p.peek()? == b'"' {
                channel = Some(p.plain_str()?);
                Value::Null
            } else {
                p.scalar()?
            };
            entries.push((key, v));
            Some(())
        });
        if flat.is_some() {
            let operator = match entries.as_slice() {
                [_, (key, _)] => operator_index(key),
                _ => None,
            };
            if let (Some(name), Some(operator)) = (channel, operator) {
                if let Some((_, operand)) = entries.pop() {
                    return Some(Predicate::plain(self.channels.get(name), operator, operand));
                }
            }
            if let (Some(name), Some((_, first))) = (channel, entries.first_mut()) {
                *first = Value::String(name.to_owned());
            }
            return Some(Predicate::from_entries(entries));
        }
        self.i = start;
        let text = self.value_slice()?;
        match json::parse(text).ok()? {
            Value::Object(m) => Some(Predicate::from(m)),
            _ => None,
        }
    }

    /// A plain string, a number without an exponent or a literal, as a value.
    fn scalar(&mut self) -> Option<serde_json::Value> {
        use serde_json::Value;
        Some(match self.peek()? {
            b'"' => Value::String(self.plain_str()?.to_owned()),
            b't' => self.literal(b"true").map(|_| Value::Bool(true))?,
            b'f' => self.literal(b"false").map(|_| Value::Bool(false))?,
            b'n' => self.literal(b"null").map(|_| Value::Null)?,
            _ => {
                let start = self.i;
                self.number()?;
                let text = self.t.get(start..self.i)?;
                if text.contains(['e', 'E']) {
                    return None;
                }
                Value::Number(serde_json::from_str(text).ok()?)
            }
        })
    }

    /// The channels at `self.i`, into `spec`, when they read with no finding. They are few:
    /// the checked parser and the [`Reader`] read them, as on the serde path.
    fn channels(&mut self, spec: &mut GraphSpec) -> Option<()> {
        let slice = self.value_slice()?;
        let v = json::parse(slice).ok()?;
        let mut r = Reader::new();
        r.top_level_field("channels", v, spec);
        r.finish(None).diagnostics.is_empty().then_some(())
    }

    /// The node list at `self.i`, into `spec`; where each node starts, into `starts`.
    fn nodes(&mut self, spec: &mut GraphSpec, starts: &mut Vec<u32>) -> Option<()> {
        let nodes = &mut spec.nodes;
        // Counted from here: nothing before holds a node.
        let hint = crate::read_stream::nodes_hint(&self.t[self.i..]);
        nodes.reserve(hint);
        starts.reserve(hint);
        self.each_node(None, |p, start, node| {
            starts.push(start);
            nodes.push(p.node_spec(node));
            Some(())
        })?;
        // As the serde path: no slack kept (see `read_stream`).
        nodes.shrink_to_fit();
        Some(())
    }

    /// The node read last, built.
    fn node_spec(&self, node: NodeRead<'a>) -> NodeSpec {
        NodeSpec {
            id: Id::from(node.id),
            type_name: node.type_name.map(Id::from),
            config: node.config.map(|c| self.config_of(&c)).unwrap_or_default(),
        }
    }

    /// The node list at `self.i`, each node to `each` (with where it starts) as it is read;
    /// stopped before a node that starts at `stop` (then true).
    fn each_node(
        &mut self,
        stop: Option<usize>,
        mut each: impl FnMut(&mut Self, u32, NodeRead<'a>) -> Option<()>,
    ) -> Option<bool> {
        self.elements_until(stop, |p| p.node(&mut each))
    }

    /// The node at `self.i`, to `each` (with where it starts).
    fn node(&mut self, each: &mut impl FnMut(&mut Self, u32, NodeRead<'a>) -> Option<()>) -> Option<()> {
        let start = self.at();
        let (mut id, mut type_name, mut config) = (None, None, None);
        self.fields(|p, key| {
            Some(match key {
                "id" => {
                    id = Some(p.plain_str()?);
                    1
                }
                "type" => {
                    if p.peek()? == b'n' {
                        p.literal(b"null")?;
                    } else {
                        type_name = Some(p.plain_str()?);
                    }
                    2
                }
                "config" => {
                    if p.peek()? != b'{' {
                        return None;
                    }
                    config = Some(p.config()?);
                    4
                }
                _ => return None,
            })
        })?;
        each(self, start, NodeRead { id: id?, type_name, config })
    }

    /// Whether the node read last (`node`) is `want`, as `GraphSpec::identical` compares them.
    fn same_node(&self, node: &NodeRead<'a>, want: &NodeSpec) -> bool {
        node.id == want.id
            && node.type_name == want.type_name.as_deref()
            && match &node.config {
                // The text the reading would keep is the one the document holds: the usual case.
                Some(c) if want.config.raw_text() == Some(self.config_text(c)) => true,
                Some(c) => identical_configs(&self.config_of(c), &want.config),
                None => identical_configs(&Config::default(), &want.config),
            }
    }

    /// Whether the nodes from the one at `self.i` to the end of their list are those `want`
    /// has left, node for node.
    fn same_rest_of_nodes(&mut self, want: &mut std::slice::Iter<'_, NodeSpec>) -> Option<()> {
        self.rest_of_elements(None, |p| {
            p.node(&mut |p: &mut Self, _, node| p.same_node(&node, want.next()?).then_some(()))
        })?;
        want.next().is_none().then_some(())
    }

    /// Whether the edge list at `self.i` is `want`, edge for edge.
    fn same_edges(&mut self, want: &[EdgeSpec]) -> bool {
        let mut want = want.iter();
        let same = self.each_edge(|_, from, to, when| {
            let w = want.next()?;
            (w.from == from && w.to == to && identical_whens(&when, &w.when)).then_some(())
        });
        same.is_some() && want.next().is_none()
    }

    /// The edge list at `self.i`, into `edges`; where each edge starts, into `starts`.
    fn edges(&mut self, edges: &mut Vec<EdgeSpec>, starts: &mut Vec<u32>) -> Option<()> {
        // Counted from here: the nodes before hold no edge.
        let hint = crate::read_stream::edges_hint(&self.t[self.i..]);
        edges.reserve(hint);
        starts.reserve(hint);
        self.each_edge(|start, from, to, when| {
            starts.push(start);
            edges.push(EdgeSpec { from: Id::from(from), to: Id::from(to), when });
            Some(())
        })?;
        edges.shrink_to_fit();
        Some(())
    }

    /// The edge list at `self.i`, each edge to `each` (where it starts, `from`, `to`, `when`).
    fn each_edge(
        &mut self,
        each: impl FnMut(u32, &'a str, &'a str, Option<Predicate>) -> Option<()>,
    ) -> Option<()> {
        self.each_edge_with(P::predicate, each)
    }

    /// [`P::each_edge`], each `when` object read by `when` (at `self.i`).
    fn each_edge_with<W>(
        &mut self,
        mut read_when: impl FnMut(&mut Self) -> Option<W>,
        mut each: impl FnMut(u32, &'a str, &'a str, Option<W>) -> Option<()>,
    ) -> Option<()> {
        self.elements(|p| {
            let start = p.at();
            let (mut from, mut to, mut when) = (None, None, None);
            p.fields(|p, key| {
                Some(match key {
                    "from" => {
                        from = Some(p.plain_str()?);
                        1
                    }
                    "to" => {
                        to = Some(p.plain_str()?);
                        2
                    }
                    "when" => {
                        if p.peek()? != b'{' {
                            return None;
                        }
                        when = Some(read_when(p)?);
                        4
                    }
                    _ => return None,
                })
            })?;
            each(start, from?, to?, when)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::first_special;

    /// Every byte value at every place of a word, alone and before or after another special
    /// byte: the first special byte is found, as a byte-by-byte look finds it.
    #[test]
    fn the_first_special_byte_of_a_word_is_found_exactly() {
        let special = |c: u8| c == b'"' || c == b'\\' || c < 0x20;
        for place in 0..8 {
            for c in 0..=255u8 {
                for other in [b'a', b'"', 0x00, 0x80, 0xff] {
                    for other_at in 0..8 {
                        let mut bytes = [b'a'; 8];
                        bytes[other_at] = other;
                        bytes[place] = c;
                        let want = bytes.iter().position(|&b| special(b));
                        assert_eq!(first_special(u64::from_le_bytes(bytes)), want, "{bytes:?}");
                    }
                }
            }
        }
    }
}
