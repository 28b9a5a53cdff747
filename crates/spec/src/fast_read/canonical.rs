//! Whether a text is already in canonical form, decided as it is read, without building the
//! document (issue 18): what `trellis fmt --check` and `trellis fmt` need of a file that is
//! already formatted, the usual case in CI.
//!
//! Built first, the document of 10,000 nodes took 9-10 ms of the 15 of `fmt --check` (most of
//! it fresh memory: every id, type and config text in a string of its own), and its canonical
//! text was then compared with the file. Here the quick reader's loops (`each_node`,
//! `each_edge`, shared with the reading that builds) hand each node and edge over as slices of
//! the text, the canonical writer's own pieces (`writer::write_node`, `write_edge`, ...) write
//! it into a small buffer, and that is compared with the text where the canonical text has it.
//!
//! It only ever says "canonical": when the quick reader would give up (so the full reading may
//! have findings) or anything differs, the answer is false, which says nothing; the caller then
//! reads the document and asks [`crate::writer::is_canonical`], which gives the same answer on
//! every text this one passes (tests in `read_stream`, and the fuzz target `spec_pipeline`).
//!
//! A large text is checked on three threads, as [`super::reads_as`] compares one: the edges
//! from the line that starts them, the nodes from one in the middle, each answer taken only when
//! the pass from the start arrives at that very byte. Nothing is built, so unlike the reading a
//! third thread pays on two cores (`fmt --check` of 100,000 nodes 78 -> 57 ms mean, 10,000
//! nodes 11.6 -> 10.5 ms, against two threads; issue 18).

use super::{edges_ahead, NodeRead, P, PARALLEL_FROM};
use crate::config::{self, Config, Indent};
use crate::model::{GraphSpec, Predicate};
use crate::writer;
use trellis_threads::{beside, Beside};

/// Whether `text` reads with no finding and is its own canonical text (see the module); false
/// says nothing.
pub(crate) fn is_canonical(text: &str) -> bool {
    // Only a large text is split: a small one does not ask the kernel for its cores.
    let two = text.len() >= PARALLEL_FROM && trellis_threads::allowed_core_count() <= 2;
    let split = if two { Split::Two } else { Split::Three };
    is_canonical_split(text, split)
}

/// How a large text is checked: on two threads of about equal work, for two cores (three
/// threads there took 6 ms on one core, one after the other, and 3-4 on the other, `perf sched
/// timehist`; `fmt --check` of 10,000 nodes 1.1 ms and of 100,000 nodes 6 ms faster in two;
/// docs/BENCHMARKS.md, twenty-third session), or on three: the nodes from the start, the nodes
/// from the middle one, the edges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Split {
    Two,
    Three,
}

/// [`is_canonical`] with the text split as told (the tests try both on any machine).
pub(crate) fn is_canonical_split(text: &str, split: Split) -> bool {
    if text.len() < PARALLEL_FROM {
        return from_start(text, Ahead::default()).is_some();
    }
    if split == Split::Two {
        if let Some((comma, brace)) = middle_node(text, TWO_WAY_MIDDLE) {
            let rest = move || {
                let edges_at = rest_of_nodes(text, comma, brace)?;
                Some((edges_at, Some(edges_from(text, edges_at))))
            };
            return beside("check the second half", rest, |rest| {
                from_start(text, Ahead { edges: None, nodes: Some((brace, rest)) })
            })
            .is_some();
        }
    }
    let edges = move || {
        let at = edges_ahead(text)?;
        Some((at, edges_from(text, at)))
    };
    beside("check edges", edges, |edges| match middle_node(text, THREE_WAY_MIDDLE) {
        Some((comma, brace)) => {
            let rest = move || Some((rest_of_nodes(text, comma, brace)?, None));
            beside("check nodes", rest, |rest| {
                from_start(text, Ahead { edges: Some(edges), nodes: Some((brace, rest)) })
            })
        }
        None => from_start(text, Ahead { edges: Some(edges), nodes: None }),
    })
    .is_some()
}

/// Where [`middle_node`] looks for the node to split at, in hundredths of the text: for three
/// pieces, the middle of the nodes (they are about three fifths of a generated document's
/// text); for two, the place that leaves about half the work on each side (a node's byte costs
/// about a third more to check than an edge's: 45 % of the text is nodes' on one side, 15 %
/// nodes' and 40 % edges' on the other).
pub(crate) const THREE_WAY_MIDDLE: usize = 30;
pub(crate) const TWO_WAY_MIDDLE: usize = 45;

/// Whether the edges from `at` (where their list starts) to the end of the text are canonical.
fn edges_from(text: &str, at: usize) -> bool {
    let mut p = P::checking(text);
    p.i = at;
    edges_to_end(&mut p, &mut Compared::from(text, at)).is_some()
}

/// Where the other thread's edges start, and whether the text from there on is canonical.
type EdgesChecked<'t> = Beside<'t, Option<(usize, bool)>>;

/// What other threads check of a large text: the edges from the line that starts them, and the
/// nodes from a node in the middle (where it opens; where the edges' list starts when the
/// nodes from there on are canonical, and whether the edges are when that thread checked them
/// too).
#[derive(Default)]
struct Ahead<'t> {
    edges: Option<&'t EdgesChecked<'t>>,
    nodes: Option<(usize, &'t NodesChecked<'t>)>,
}

/// Where the edges' list starts when the other thread's nodes are canonical, and whether the
/// edges are too when it checked them as well.
type NodesChecked<'t> = Beside<'t, Option<(usize, Option<bool>)>>;

/// A node of a canonical text where it is split between threads: the comma before it and its
/// opening brace. The first one from `hundredths` of the text on, found by the bytes the writer
/// puts before a node's id: in canonical text nothing else has them (a config is indented
/// deeper, an edge has no id), and strings hold no line break.
fn middle_node(text: &str, hundredths: usize) -> Option<(usize, usize)> {
    let mut opening = writer::NODE_SEPARATOR.to_vec();
    opening.extend_from_slice(writer::NODE_OPENING);
    let from = text.len() / 100 * hundredths;
    let comma = from + memchr::memmem::find(text.as_bytes().get(from..)?, &opening)?;
    Some((comma, comma + writer::NODE_SEPARATOR.len()))
}

/// The nodes from the one that opens at `brace` (after the comma at `comma`) to the end of their
/// list and the edges' key, checked: where the edges' list starts when they are canonical.
fn rest_of_nodes(text: &str, comma: usize, brace: usize) -> Option<usize> {
    let mut p = P::checking(text);
    p.i = brace;
    let mut compared = Compared::from(text, comma);
    // Not the first node: the writer puts a comma before it.
    p.rest_of_elements(None, |p| p.node(&mut |_, _, node| compared.next(|out| write_node(out, 1, &node))))?;
    after_value(&mut p)?;
    key(&mut p, "edges")?;
    compared.next(|out| writer::write_nodes_end(out, 1))?;
    (compared.at == p.i).then_some(p.i)
}

/// What the writer writes of the document's node `index` as read (`writer::write_node`).
fn write_node(out: &mut Vec<u8>, index: usize, node: &NodeRead<'_>) {
    writer::write_node(out, index, node.id, node.type_name, |out| match &node.config {
        // Already as the writer writes it (most configs of a formatted file): as it is.
        Some(c) if config::is_rewritten(c.raw, 3) => out.extend_from_slice(c.raw.as_bytes()),
        // What `Config::write_canonical` writes of the config the reading keeps (its compact
        // text, which `rewrite` writes as it writes the text as read).
        Some(c) => config::rewrite(c.raw, Indent::Pretty(3), out),
        None => Config::default().write_canonical(out, 3),
    })
}

/// How far the text is known to be canonical, and a buffer for the canonical text of the part
/// read last.
struct Compared<'a> {
    text: &'a [u8],
    at: usize,
    out: Vec<u8>,
}

impl<'a> Compared<'a> {
    fn from(text: &'a str, at: usize) -> Self {
        Compared { text: text.as_bytes(), at, out: Vec::with_capacity(1024) }
    }

    /// Whether the text goes on with what `write` writes; then steps over it.
    fn next(&mut self, write: impl FnOnce(&mut Vec<u8>)) -> Option<()> {
        self.out.clear();
        write(&mut self.out);
        let end = self.at + self.out.len();
        (self.text.get(self.at..end)? == self.out.as_slice()).then(|| self.at = end)
    }
}

/// The check from the start of the text, the edges taken from `ahead` when it read them from
/// where this pass arrives.
fn from_start(text: &str, ahead: Ahead<'_>) -> Option<()> {
    // As the reading: offsets are kept as `u32`, a larger text is not read the quick way.
    u32::try_from(text.len()).ok()?;
    let mut p = P::checking(text);
    let mut compared = Compared::from(text, 0);
    // The canonical order of the keys: any other is not canonical.
    let mut head = GraphSpec::default();
    p.ws();
    p.eat(b'{')?;
    key(&mut p, "name")?;
    if p.peek()? == b'n' {
        p.literal(b"null")?;
    } else {
        head.name = Some(p.plain_str()?.to_owned());
    }
    after_value(&mut p)?;
    key(&mut p, "channels")?;
    p.channels(&mut head)?;
    after_value(&mut p)?;
    key(&mut p, "nodes")?;
    compared.next(|out| {
        writer::write_start(&head, out, &mut |_| true);
    })?;
    let mut nodes = 0;
    let stop = ahead.nodes.as_ref().map(|(brace, _)| *brace);
    let stopped = p.each_node(stop, |_, _, node| {
        compared.next(|out| write_node(out, nodes, &node))?;
        nodes += 1;
        Some(())
    })?;
    match ahead.nodes {
        // Arrived, after exactly the nodes before it, at the node the other thread checked
        // from: its answer is the rest of the nodes'.
        Some((_, rest)) if stopped => {
            let (edges_at, edges_canonical) = rest.join().flatten()?;
            (compared.at + writer::NODE_SEPARATOR.len() == p.i).then_some(())?;
            // Checked there to the end, too (on two cores).
            if let Some(canonical) = edges_canonical {
                return canonical.then_some(());
            }
            p.i = edges_at;
            compared.at = edges_at;
        }
        _ => {
            after_value(&mut p)?;
            key(&mut p, "edges")?;
            compared.next(|out| writer::write_nodes_end(out, nodes))?;
        }
    }
    if let Some((at, canonical)) = ahead.edges.and_then(Beside::join).flatten() {
        // Checked there by the other thread, to the end (see `is_canonical`). The text up to
        // here is canonical, so its first line like that one is this one (a canonical config
        // is indented deeper), and where this pass is, the comparison is too.
        if at == p.i {
            return canonical.then_some(());
        }
    }
    edges_to_end(&mut p, &mut compared)
}

/// An edge's condition as checked: its text, when the reader's config check reads it (then the
/// checked parser gives the same object, which the writer writes as it rewrites the text), or
/// the condition built as the reading builds it.
enum When<'a> {
    Text(&'a str),
    Built(Predicate),
}

impl<'a> When<'a> {
    /// The condition at `p.i`, or `None` where the reading gives up.
    fn read(p: &mut P<'a>) -> Option<When<'a>> {
        let start = p.i;
        match p.config() {
            Some(c) => Some(When::Text(c.raw)),
            None => {
                p.i = start;
                p.predicate().map(When::Built)
            }
        }
    }

    /// What the writer writes of it (`writer::write_edge`).
    fn write(&self, out: &mut Vec<u8>) {
        match self {
            When::Text(raw) if config::is_rewritten(raw, 3) => out.extend_from_slice(raw.as_bytes()),
            When::Text(raw) => config::rewrite(raw, Indent::Pretty(3), out),
            When::Built(when) => config::write_entries(out, when.iter(), Indent::Pretty(3)),
        }
    }
}

/// The edge list at `p.i` and the end of the text, checked.
fn edges_to_end(p: &mut P<'_>, compared: &mut Compared<'_>) -> Option<()> {
    let mut edges = 0;
    p.each_edge_with(When::read, |_, from, to, when| {
        compared.next(|out| {
            writer::write_edge(out, edges, from, to, when.map(|w| move |out: &mut Vec<u8>| w.write(out)))
        })?;
        edges += 1;
        Some(())
    })?;
    compared.next(|out| writer::write_end(out, edges))?;
    p.ws();
    p.eat(b'}')?;
    p.ws();
    (p.i == p.b.len() && compared.at == p.b.len()).then_some(())
}

/// The key `want` of the top-level object at `p.i` (after whitespace), and its colon.
fn key(p: &mut P<'_>, want: &str) -> Option<()> {
    p.ws();
    (p.plain_str()? == want).then_some(())?;
    p.ws();
    p.eat(b':')?;
    p.ws();
    Some(())
}

/// The comma after a top-level value that is not the last.
fn after_value(p: &mut P<'_>) -> Option<()> {
    p.ws();
    p.eat(b',')
}
