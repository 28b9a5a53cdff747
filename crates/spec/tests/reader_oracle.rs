//! The oracle of the GraphSpec reader: on any text, `parse_spec` gives exactly what the plain
//! serde path gives (the text parsed by serde_json into one `Value`, refusing repeated keys, then
//! the tree reader `read::spec_from_value`, spans filled by `json::fill_spans`): the same
//! document, key order and number text included, with the same findings, or the same first
//! error. Its validation is the same too (the reader keeps facts about configs that validation
//! uses to skip work). And the canonical writer is serde_json's pretty text of the document as
//! the plain path reads it.
//!
//! The texts: GraphSpec documents written every way (pretty, compact, odd whitespace), with
//! fields of every kind in every place, unknown and repeated keys, escapes, deep nesting, and
//! then cut or with a byte changed; and arbitrary text. `fuzz/fuzz_targets/reader_oracle.rs`
//! holds the reader to the same oracle on whatever libFuzzer finds.

use proptest::prelude::*;
use trellis_spec::read::{spec_from_value, Parsed};
use trellis_spec::{json, parse_spec, to_canonical_string, validate, writer};

/// The plain serde path: one `Value` tree, then the tree reader.
fn tree_read(text: &str) -> Parsed {
    match json::parse(text) {
        Ok(value) => {
            let mut parsed = spec_from_value(value);
            json::fill_spans(text, &mut parsed.diagnostics);
            parsed
        }
        Err(d) => Parsed { diagnostics: vec![d], ..Parsed::default() },
    }
}

/// `parse_spec` of `text` agrees with the plain path in every respect the callers see.
fn agrees(text: &str) -> Result<(), TestCaseError> {
    let read = parse_spec(text);
    let tree = tree_read(text);
    prop_assert_eq!(&read.diagnostics, &tree.diagnostics, "findings differ for {:?}", text);
    match (&read.spec, &tree.spec) {
        (None, None) => {}
        (Some(a), Some(b)) => {
            prop_assert!(a.identical(b), "documents differ for {:?}:\n{:?}\n{:?}", text, a, b);
            prop_assert_eq!(validate(a, None), validate(b, None), "validation differs for {:?}", text);
            let canonical = to_canonical_string(a);
            let serde =
                serde_json::to_string_pretty(b).map_err(|e| TestCaseError::fail(e.to_string()))? + "\n";
            prop_assert_eq!(&canonical, &serde, "the canonical text is not serde_json's for {:?}", text);
            prop_assert_eq!(
                writer::is_canonical(a, text),
                text == canonical,
                "is_canonical is wrong for {:?}",
                text
            );
        }
        (a, b) => {
            prop_assert!(false, "one path read a document, the other not, for {:?}: {:?} / {:?}", text, a, b)
        }
    }
    Ok(())
}

/// A JSON value as text is written: objects as lists of members, so a key can repeat.
#[derive(Debug, Clone)]
enum J {
    Null,
    Bool(bool),
    /// A number's text, as written (it may have an exponent, a fraction, many digits).
    Num(String),
    /// A string's text between its quotes, escapes included.
    Str(String),
    Arr(Vec<J>),
    Obj(Vec<(String, J)>),
}

/// How a text lays out its whitespace.
#[derive(Debug, Clone, Copy)]
enum Layout {
    Compact,
    Pretty,
    Loose,
}

fn write(j: &J, layout: Layout, depth: usize, out: &mut String) {
    let line = |out: &mut String, depth: usize| match layout {
        Layout::Compact => {}
        Layout::Pretty => {
            out.push('\n');
            out.push_str(&"  ".repeat(depth));
        }
        Layout::Loose => out.push_str(" \t\r\n "),
    };
    match j {
        J::Null => out.push_str("null"),
        J::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        J::Num(n) => out.push_str(n),
        J::Str(s) => {
            out.push('"');
            out.push_str(s);
            out.push('"');
        }
        J::Arr(items) if items.is_empty() => out.push_str("[]"),
        J::Arr(items) => {
            out.push('[');
            for (k, item) in items.iter().enumerate() {
                if k > 0 {
                    out.push(',');
                }
                line(out, depth + 1);
                write(item, layout, depth + 1, out);
            }
            line(out, depth);
            out.push(']');
        }
        J::Obj(members) if members.is_empty() => out.push_str("{}"),
        J::Obj(members) => {
            out.push('{');
            for (k, (key, value)) in members.iter().enumerate() {
                if k > 0 {
                    out.push(',');
                }
                line(out, depth + 1);
                out.push('"');
                out.push_str(key);
                out.push_str(if matches!(layout, Layout::Compact) { "\":" } else { "\": " });
                write(value, layout, depth + 1, out);
            }
            line(out, depth);
            out.push('}');
        }
    }
}

/// The text of a string, escapes and all: plain words, GraphSpec's own names, escapes that
/// decode to the same text as a plain one, control characters, a lone surrogate.
fn string_text() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[a-z_]{1,8}",
        2 => prop::sample::select(vec![
            "id", "type", "config", "from", "to", "when", "channel", "reducer", "name", "nodes", "edges",
            "channels", "append", "merge", "last_write", "__start__", "__end__", "eq", "in", "gt",
            "truthy", "__proto__",
        ])
        .prop_map(str::to_owned),
        1 => prop::sample::select(vec![
            "\\u0069d", "a\\\"b", "\\\\", "\\/", "\\n\\t", "\\u00e9", "\\ud83d\\ude00", "\\ud800", "\\u001f",
            "ça", "", "x\\u0000", "\\uD834\\uDD1E",
        ])
        .prop_map(str::to_owned),
    ]
}

fn number_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<i32>().prop_map(|n| n.to_string()),
        "-?[1-9][0-9]{14,24}",
        "-?[0-9]\\.[0-9]{1,4}",
        "-?[1-9](\\.[0-9])?[eE][+-]?[0-9]{1,3}",
        Just("-0".to_owned()),
        Just("1.50".to_owned()),
    ]
}

fn scalar() -> impl Strategy<Value = J> {
    prop_oneof![
        Just(J::Null),
        any::<bool>().prop_map(J::Bool),
        number_text().prop_map(J::Num),
        string_text().prop_map(J::Str),
    ]
}

/// Any JSON value, nested a little.
fn value() -> impl Strategy<Value = J> {
    scalar().prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(J::Arr),
            prop::collection::vec((string_text(), inner), 0..4).prop_map(J::Obj),
        ]
    })
}

/// A value of the kind the field wants most of the time, anything else sometimes.
fn or_junk(good: impl Strategy<Value = J> + 'static) -> BoxedStrategy<J> {
    prop_oneof![6 => good, 1 => value()].boxed()
}

fn id() -> impl Strategy<Value = J> {
    prop_oneof![
        6 => "[a-c][0-2]?".prop_map(J::Str),
        1 => string_text().prop_map(J::Str),
        1 => Just(J::Str("__start__".into())),
        1 => Just(J::Str("__end__".into())),
    ]
}

/// Members of an object: the wanted keys (each present or not, in a shuffled order), an
/// unknown key sometimes, a repeated key rarely.
fn members(wanted: Vec<(&'static str, BoxedStrategy<J>)>) -> impl Strategy<Value = Vec<(String, J)>> {
    let n = wanted.len();
    let fields: Vec<_> = wanted
        .into_iter()
        .map(|(key, strategy)| prop::option::weighted(0.85, strategy).prop_map(move |v| (key.to_owned(), v)))
        .collect();
    (
        fields,
        prop::option::weighted(0.1, (string_text(), value())),
        prop::option::weighted(0.03, 0..n.max(1)),
        Just(()).prop_perturb(|_, rng| rng),
    )
        .prop_map(|(fields, extra, repeat, mut rng)| {
            let mut out: Vec<(String, J)> =
                fields.into_iter().filter_map(|(k, v)| v.map(|v| (k, v))).collect();
            if let Some(extra) = extra {
                out.push(extra);
            }
            if let Some(i) = repeat {
                if let Some(member) = out.get(i % out.len().max(1)).cloned() {
                    out.push(member);
                }
            }
            // A shuffle: documents written by hand put keys in any order.
            for i in (1..out.len()).rev() {
                out.swap(i, rand_below(&mut rng, i + 1));
            }
            out
        })
}

fn rand_below(rng: &mut proptest::test_runner::TestRng, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

fn config() -> impl Strategy<Value = J> {
    prop_oneof![
        8 => prop::collection::vec((string_text(), value()), 0..6).prop_map(J::Obj),
        1 => Just(J::Null),
        1 => value(),
    ]
}

fn node() -> BoxedStrategy<J> {
    let fields = members(vec![
        ("id", or_junk(id())),
        ("type", or_junk(prop_oneof!["[a-z]{1,5}".prop_map(J::Str), Just(J::Null)])),
        ("config", config().boxed()),
    ]);
    or_junk(fields.prop_map(J::Obj))
}

fn predicate() -> BoxedStrategy<J> {
    let ops = prop::sample::select(vec!["eq", "neq", "in", "gt", "lt", "truthy", "exists", "x-note"]);
    let fields =
        (prop::option::weighted(0.9, string_text()), prop::collection::vec((ops, or_junk(scalar())), 0..3))
            .prop_map(|(channel, ops)| {
                let mut out: Vec<(String, J)> = ops.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
                if let Some(c) = channel {
                    out.insert(0, ("channel".to_owned(), J::Str(c)));
                }
                J::Obj(out)
            });
    prop_oneof![8 => fields, 1 => Just(J::Null), 1 => value()].boxed()
}

fn edge() -> BoxedStrategy<J> {
    let fields = members(vec![("from", or_junk(id())), ("to", or_junk(id())), ("when", predicate())]);
    or_junk(fields.prop_map(J::Obj))
}

fn channels() -> BoxedStrategy<J> {
    let reducer = prop_oneof![
        4 => prop::sample::select(vec!["append", "merge", "last_write", "sum"]).prop_map(|r| J::Str(r.to_owned())),
        1 => value(),
    ];
    let channel = or_junk(members(vec![("reducer", reducer.boxed())]).prop_map(J::Obj));
    or_junk(prop::collection::vec((string_text(), channel), 0..4).prop_map(J::Obj))
}

/// A GraphSpec document, mostly well formed.
fn document() -> BoxedStrategy<J> {
    let fields = members(vec![
        ("name", or_junk(prop_oneof!["\\PC{0,8}".prop_map(J::Str), Just(J::Null)])),
        ("channels", channels()),
        ("nodes", or_junk(prop::collection::vec(node(), 0..5).prop_map(J::Arr))),
        ("edges", or_junk(prop::collection::vec(edge(), 0..6).prop_map(J::Arr))),
    ]);
    prop_oneof![12 => fields.prop_map(J::Obj), 1 => value()].boxed()
}

fn layout() -> impl Strategy<Value = Layout> {
    prop_oneof![Just(Layout::Pretty), Just(Layout::Compact), Just(Layout::Loose)]
}

/// What may happen to a text before it is read: nothing, a cut, a byte changed, taken out or put
/// in, a value wrapped in deep brackets, something after the value.
#[derive(Debug, Clone)]
enum Change {
    None,
    Cut(usize),
    Replace(usize, char),
    Remove(usize),
    Insert(usize, &'static str),
    Deep(usize, usize),
    Trailing(&'static str),
}

fn change() -> impl Strategy<Value = Change> {
    let at = any::<usize>();
    prop_oneof![
        10 => Just(Change::None),
        1 => at.prop_map(Change::Cut),
        2 => (at, prop::sample::select(vec!['{', '}', '[', ']', '"', ',', ':', '0', 'e', '\\', ' ', 'x', '\u{1}'])).prop_map(|(a, c)| Change::Replace(a, c)),
        1 => at.prop_map(Change::Remove),
        2 => (at, prop::sample::select(vec![",", "\"a\":1,", "[", "{}", "\"k\"", "-", "null,", "\\u00"])).prop_map(|(a, s)| Change::Insert(a, s)),
        1 => (at, 120usize..132).prop_map(|(a, d)| Change::Deep(a, d)),
        1 => prop::sample::select(vec![" ", "\n", " {}", "x", ",", "\u{feff}"]).prop_map(Change::Trailing),
    ]
}

/// The char boundary at or before `at % (len + 1)`.
fn boundary(text: &str, at: usize) -> usize {
    let mut i = at % (text.len() + 1);
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn apply(mut text: String, change: &Change) -> String {
    match *change {
        Change::None => {}
        Change::Cut(at) => text.truncate(boundary(&text, at)),
        Change::Replace(at, c) => {
            let i = boundary(&text, at);
            if i < text.len() {
                let len = text[i..].chars().next().map_or(0, char::len_utf8);
                text.replace_range(i..i + len, c.encode_utf8(&mut [0; 4]));
            }
        }
        Change::Remove(at) => {
            let i = boundary(&text, at);
            if i < text.len() {
                text.remove(i);
            }
        }
        Change::Insert(at, s) => text.insert_str(boundary(&text, at), s),
        Change::Deep(at, depth) => {
            // Around the value that starts at the first `{` or `[` from `at` on.
            let from = boundary(&text, at);
            if let Some(start) = text[from..].find(['{', '[']).map(|k| k + from) {
                text.insert_str(start, &"[".repeat(depth));
                let end = text.len();
                text.insert_str(end, &"]".repeat(depth));
            }
        }
        Change::Trailing(s) => text.push_str(s),
    }
    text
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// Documents written every way and then perhaps damaged.
    #[test]
    fn the_reader_is_the_plain_serde_path_on_documents(doc in document(), layout in layout(), change in change()) {
        let mut text = String::new();
        write(&doc, layout, 0, &mut text);
        if matches!(layout, Layout::Pretty) {
            text.push('\n');
        }
        agrees(&apply(text, &change))?;
    }

    /// Canonical texts of documents (what `fmt` and a save write), then perhaps damaged: the
    /// reader's and the writer's common case, and the one byte that makes it not canonical.
    #[test]
    fn the_reader_is_the_plain_serde_path_on_canonical_texts(doc in document(), change in change()) {
        let mut text = String::new();
        write(&doc, Layout::Compact, 0, &mut text);
        if let Some(spec) = tree_read(&text).spec {
            agrees(&apply(to_canonical_string(&spec), &change))?;
        }
    }

    /// Any text at all.
    #[test]
    fn the_reader_is_the_plain_serde_path_on_any_text(text in "\\PC{0,40}|[\\[\\]{}\":,0-9a-z\\\\ ]{0,60}") {
        agrees(&text)?;
    }
}

/// Nesting at the parser's limit and one level past it, in a config, a condition, an unknown
/// field and the top level: refused at the same place on both paths, or read the same.
#[test]
fn nesting_at_the_limit_is_read_as_the_plain_path_reads_it() {
    for depth in 118..=130 {
        let deep = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
        let deep_object = format!("{}1{}", "{\"k\":".repeat(depth), "}".repeat(depth));
        for text in [
            format!(r#"{{"nodes":[{{"id":"a","config":{{"x":{deep}}}}}]}}"#),
            format!(r#"{{"nodes":[{{"id":"a","config":{deep_object}}}]}}"#),
            format!(r#"{{"edges":[{{"from":"a","to":"b","when":{{"channel":"c","in":{deep}}}}}]}}"#),
            format!(r#"{{"extra":{deep},"nodes":[]}}"#),
            format!(r#"{{"nodes":[{{"id":"a","config":{{}}}},{deep}]}}"#),
        ] {
            if let Err(e) = agrees(&text) {
                panic!("depth {depth}: {e}");
            }
        }
    }
}
