//! Property: any generated valid spec survives `to_spec(compile(from_spec(s))) == s`, its
//! canonical text reads back to `s`, and the canonical text is idempotent (what `fmt` relies on).
//! Generated names include Unicode and prototype names; configs include nested values, big
//! integers and number texts that must be kept as written.

use std::sync::Arc;

use indexmap::IndexMap;
use proptest::prelude::*;
use serde_json::{Map, Number, Value};
use trellis_spec::{
    from_spec, parse_spec, to_canonical_string, to_spec, validate, Built, ChannelSpec, EdgeSpec, GraphSpec,
    NodeSpec, Predicate, ReducerName, Registry, State, END, START,
};

const TYPES: [&str; 3] = ["noop", "llm", "__proto__"];

fn registry() -> Registry {
    let mut r = Registry::new();
    for t in TYPES {
        r.register(t, |_: &Value| Built::Node(Arc::new(|_: &State| Ok(Map::new()))));
    }
    r
}

fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z_][a-z0-9_]{0,7}",
        Just("__proto__".to_owned()),
        Just("constructor".to_owned()),
        "\\PC{1,6}",
        "[a-z]{1,3}[ :/~.-][a-z]{1,3}",
    ]
    .prop_filter("ids are non-empty and not reserved", |s| !s.is_empty() && s != START && s != END)
}

fn number() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<i64>().prop_map(|n| n.to_string()),
        "-?[1-9][0-9]{15,24}",
        "-?[0-9]\\.[0-9]{0,4}0",
        "[1-9]e[+-]?[0-9]{1,2}",
        (-1.0e6f64..1.0e6).prop_map(|f| f.to_string()),
    ]
    .prop_filter_map("a JSON number", |t| serde_json::from_str::<Number>(&t).ok().map(Value::Number))
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number(),
        "\\PC{0,12}".prop_map(Value::String),
        "[\"\\\\\u{0}-\u{1f}<>&#`]{0,4}".prop_map(Value::String),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((name(), inner), 0..4)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

fn config() -> impl Strategy<Value = Map<String, Value>> {
    prop::collection::vec((name(), value()), 0..5).prop_map(|kv| kv.into_iter().collect())
}

fn reducer() -> impl Strategy<Value = ReducerName> {
    prop_oneof![Just(ReducerName::LastWrite), Just(ReducerName::Append), Just(ReducerName::Merge)]
}

/// A predicate on `channel`: one known operator, sometimes more, sometimes unknown keys, in a
/// random key order.
fn predicate(channel: String) -> impl Strategy<Value = Predicate> {
    let op = prop_oneof![
        scalar().prop_map(|v| ("eq".to_owned(), v)),
        scalar().prop_map(|v| ("neq".to_owned(), v)),
        prop::collection::vec(scalar(), 0..4).prop_map(|v| ("in".to_owned(), Value::Array(v))),
        number().prop_map(|v| ("gt".to_owned(), v)),
        number().prop_map(|v| ("lt".to_owned(), v)),
        any::<bool>().prop_map(|b| ("truthy".to_owned(), Value::Bool(b))),
    ];
    (op, prop::option::of(("x-[a-z]{1,4}", scalar())), any::<bool>()).prop_map(
        move |(op, extra, channel_first)| {
            let mut m = Map::new();
            if channel_first {
                m.insert("channel".into(), Value::String(channel.clone()));
            }
            m.insert(op.0, op.1);
            if let Some((k, v)) = extra {
                m.insert(k, v);
            }
            if !channel_first {
                m.insert("channel".into(), Value::String(channel.clone()));
            }
            Predicate::from(m)
        },
    )
}

fn spec() -> impl Strategy<Value = GraphSpec> {
    let channels = prop::collection::vec((name(), reducer()), 0..4);
    let nodes = prop::collection::vec((name(), 0..TYPES.len(), config()), 0..6);
    (prop::option::of("\\PC{0,10}"), channels, nodes).prop_flat_map(|(graph_name, channels, nodes)| {
        let channels: IndexMap<String, ChannelSpec> =
            channels.into_iter().map(|(n, reducer)| (n, ChannelSpec { reducer })).collect();
        let mut seen = std::collections::HashSet::new();
        let nodes: Vec<NodeSpec> = nodes
            .into_iter()
            .filter(|(id, _, _)| seen.insert(id.clone()))
            .map(|(id, t, config)| NodeSpec {
                id: id.into(),
                type_name: Some(TYPES[t].to_owned().into()),
                config: config.into(),
            })
            .collect();
        let ids: Vec<String> = nodes.iter().map(|n| n.id.to_string()).collect();
        let froms: Vec<String> = std::iter::once(START.to_owned()).chain(ids.iter().cloned()).collect();
        let tos: Vec<String> = ids.iter().cloned().chain(std::iter::once(END.to_owned())).collect();
        let chans: Vec<String> = channels.keys().cloned().collect();
        let edge = (
            prop::sample::select(froms),
            prop::sample::select(tos),
            any::<bool>(),
            any::<prop::sample::Index>(),
        )
            .prop_flat_map(move |(from, to, guarded, ci)| {
                let when = if guarded && !chans.is_empty() {
                    predicate(chans[ci.index(chans.len())].clone()).prop_map(Some).boxed()
                } else {
                    Just(None).boxed()
                };
                when.prop_map(move |when| EdgeSpec { from: from.clone().into(), to: to.clone().into(), when })
            });
        let entry = EdgeSpec {
            from: START.to_owned().into(),
            to: ids.first().cloned().unwrap_or_else(|| END.to_owned()).into(),
            when: None,
        };
        prop::collection::vec(edge, 0..8).prop_map(move |mut edges| {
            edges.insert(0, entry.clone());
            GraphSpec { name: graph_name.clone(), channels: channels.clone(), nodes: nodes.clone(), edges }
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn valid_specs_round_trip_and_canonical_text_is_idempotent(s in spec()) {
        let reg = registry();
        let errors: Vec<_> = validate(&s, Some(&reg)).into_iter().filter(|d| d.is_error()).collect();
        prop_assert!(errors.is_empty(), "generated spec is invalid: {:?}", errors);
        let compiled = from_spec(&s, &reg).map_err(|e| TestCaseError::fail(format!("{e:?}")))?
            .compile().map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
        let back = to_spec(&compiled).map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
        prop_assert_eq!(&back, &s);
        let text = to_canonical_string(&back);
        let parsed = parse_spec(&text);
        prop_assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
        let again = parsed.spec.ok_or_else(|| TestCaseError::fail("no document"))?;
        prop_assert_eq!(&again, &s);
        prop_assert_eq!(to_canonical_string(&again), text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// The canonical writer is serde_json's pretty printer and a final newline, for a document
    /// built in code (configs held as maps) and for the same document read from its compact and
    /// its canonical text (configs held as the text they were read from).
    #[test]
    fn the_canonical_text_is_serde_jsons_pretty_text(s in spec()) {
        let serde = serde_json::to_string_pretty(&s).map_err(|e| TestCaseError::fail(e.to_string()))? + "\n";
        prop_assert_eq!(&to_canonical_string(&s), &serde);
        let compact = serde_json::to_string(&s).map_err(|e| TestCaseError::fail(e.to_string()))?;
        for text in [compact.as_str(), serde.as_str()] {
            let read = parse_spec(text).spec.ok_or_else(|| TestCaseError::fail("no document"))?;
            prop_assert_eq!(&to_canonical_string(&read), &serde, "read from {}", text);
            prop_assert_eq!(trellis_spec::writer::is_canonical(&read, text), text == serde);
        }
    }
}
