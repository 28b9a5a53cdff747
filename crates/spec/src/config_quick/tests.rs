use proptest::prelude::*;
use serde_json::{json, Value};

use super::*;

/// `jsonschema`'s answer for `config` (the full check's).
fn full(schema: &Value, config: &str) -> bool {
    let validator = crate::config_schema::compile(schema).expect("the test's schemas compile");
    validator.is_valid(&serde_json::from_str(config).expect("the test's configs are JSON"))
}

fn quick(schema: &Value, config: &str) -> bool {
    QuickSchema::of(schema).expect("decided here").accepts(config)
}

#[test]
fn plain_keywords_are_decided_on_the_text() {
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "title": "T",
        "properties": {
            "model": {"type": "string", "minLength": 1, "maxLength": 3, "x-trellis-channel": false},
            "mode": {"enum": ["a", "b"]},
            "t": {"type": "number", "minimum": 0, "maximum": 2},
            "n": {"type": "integer", "minimum": -1},
            "tags": {"type": "array", "items": {"type": "string", "maxLength": 2}, "maxItems": 2},
            "any": true,
            "off": false,
            "args": {"type": "object"}
        },
        "required": ["model"],
        "additionalProperties": false
    });
    let cases: &[(&str, bool)] = &[
        (r#"{"model":"abc"}"#, true),
        (r#"{"model":"çay"}"#, true), // three characters, five bytes
        (r#"{"model":"\u00e7ay"}"#, true),
        (r#"{"model":"abcd"}"#, false),
        (r#"{"model":""}"#, false),
        (r#"{}"#, false),
        (r#"{"model":"a","mode":"b","t":2,"n":-1,"tags":["x","yy"],"any":[{}],"args":{"k":[1]}}"#, true),
        (r#"{"model":"a","mode":"c"}"#, false),
        (r#"{"model":"a","mode":1}"#, false),
        (r#"{"model":"a","t":2.0}"#, true),
        (r#"{"model":"a","t":2.5}"#, false),
        (r#"{"model":"a","t":-0.0}"#, true),
        (r#"{"model":"a","t":"1"}"#, false),
        (r#"{"model":"a","n":-2}"#, false),
        (r#"{"model":"a","n":1.5}"#, false),
        (r#"{"model":"a","tags":["x","y","z"]}"#, false),
        (r#"{"model":"a","tags":["xyz"]}"#, false),
        (r#"{"model":"a","off":1}"#, false),
        (r#"{"model":"a","other":1}"#, false),
        (r#"{"model":"a","args":[]}"#, false),
    ];
    for (config, valid) in cases {
        assert_eq!(full(&schema, config), *valid, "the case itself is wrong: {config}");
        assert_eq!(quick(&schema, config), *valid, "{config}");
    }
}

/// What the text alone cannot settle exactly is left to the full check (`false`), never
/// guessed.
#[test]
fn what_is_not_plain_is_not_guessed() {
    let schema = json!({
        "type": "object",
        "properties": {
            "n": {"type": "integer"},
            "x": {"type": "number", "maximum": 2},
        }
    });
    // `1.0` is an integer for 2020-12: valid, but not decided on the text.
    assert!(full(&schema, r#"{"n":1.0}"#));
    assert!(!quick(&schema, r#"{"n":1.0}"#));
    // More digits than an f64 keeps: over the maximum by a hair, so not decided.
    assert!(!full(&schema, r#"{"x":2.0000000000000000001}"#));
    assert!(!quick(&schema, r#"{"x":2.0000000000000000001}"#));
    assert!(!quick(&schema, r#"{"x":1e0}"#));
    // Above 0 by a little: an f64 would read it as 0.
    let at_most_zero = json!({"type": "object", "properties": {"x": {"maximum": 0}}});
    let tiny = format!(r#"{{"x":0.{}1}}"#, "0".repeat(400));
    assert!(!full(&at_most_zero, &tiny));
    assert!(!quick(&at_most_zero, &tiny));
    assert!(quick(&at_most_zero, r#"{"x":-0.000000000000000000000000001}"#));
    assert_eq!(short_number("120.0500"), Some(120.05));
    assert_eq!(short_number("0.000123456789012345"), Some(0.000123456789012345));
    assert_eq!(short_number("1.234567890123456"), None);
    assert_eq!(short_number("1."), None);
    assert_eq!(short_number(".5"), None);
    // A config that is not an object, or text that is not whole.
    assert!(!quick(&schema, r#"[]"#));
    assert!(!quick(&schema, r#"{"n":1"#));
    assert!(!quick(&schema, r#"{"n":1,}"#));
}

#[test]
fn a_property_with_more_than_plain_keywords_is_checked_alone() {
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "channel": {"type": "string", "pattern": "^\\S(.*\\S)?$"},
            "url": {"type": "string", "format": "uri-reference"},
            "nested": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
            "step": {"type": "number", "multipleOf": 0.5, "exclusiveMinimum": 0}
        }
    });
    let quick_schema = QuickSchema::of(&schema).expect("decided here");
    assert!(matches!(quick_schema.props[0].1, Check::Alone(_)));
    for (config, valid) in [
        (r#"{"channel":"out"}"#, true),
        (r#"{"channel":" out"}"#, false),
        (r#"{"nested":{"a":"x"}}"#, true),
        (r#"{"nested":{}}"#, false),
        (r#"{"step":1.5}"#, true),
        (r#"{"step":0}"#, false),
        (r#"{"step":1.25}"#, false),
    ] {
        assert_eq!(full(&schema, config), valid, "the case itself is wrong: {config}");
        assert_eq!(quick_schema.accepts(config), valid, "{config}");
    }
}

#[test]
fn schemas_it_cannot_decide_are_declined() {
    for schema in [
        json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/a"}}, "$defs": {"a": {"type": "string"}}}),
        json!({"type": "object", "patternProperties": {"^a": {"type": "string"}}}),
        json!({"type": "object", "additionalProperties": {"type": "string"}}),
        json!({"type": "object", "unevaluatedProperties": false}),
        json!({"type": "object", "allOf": [{"required": ["a"]}]}),
        json!({"type": "string"}),
        json!({"type": "object", "required": ["a"], "additionalProperties": false}),
        json!({"$schema": "http://json-schema.org/draft-03/schema#", "type": "object"}),
        json!(true),
    ] {
        assert!(QuickSchema::of(&schema).is_none(), "{schema}");
    }
    // A property named `id` is a property, not an identifier.
    assert!(QuickSchema::of(&json!({"type": "object", "properties": {"id": {"type": "string"}}})).is_some());
}

/// Every built-in type but two is decided here (`human_input` has an `if`/`then` over the whole
/// config, `a2a_call` an `anyOf`: `text` or `textFrom`), and typical configs of them are
/// accepted on their text when, and only when, the full check accepts them.
#[test]
fn the_built_in_types_are_decided_on_the_text() {
    let registry = crate::builtin::default_registry();
    let mut quick_by_type = HashMap::new();
    for t in registry.types() {
        let schema = t.info.config_schema.as_ref().expect("built-in types have schemas");
        let quick = QuickSchema::of(schema);
        let whole_config_keyword = schema.get("allOf").is_some() || schema.get("anyOf").is_some();
        assert_eq!(quick.is_some(), !whole_config_keyword, "{}", t.info.type_name);
        quick_by_type.insert(
            t.info.type_name.as_str(),
            (quick, crate::config_schema::compile(schema).expect("compiles")),
        );
    }
    let configs = [
        (
            "llm",
            r#"{"model":"claude-opus-4-8","system_prompt":"You answer.","temperature":0.7,"max_tokens":512,"output_channel":"messages"}"#,
            true,
        ),
        ("llm", r#"{"model":"","temperature":0.7}"#, false),
        ("llm", r#"{"temperature":7}"#, false),
        ("llm", r#"{"max_tokens":"512"}"#, false),
        ("llm", r#"{"output_channel":" messages"}"#, false),
        (
            "http",
            r#"{"url":"https://api.example.com/v1/x/1","method":"GET","headers":{"Accept":"application/json"},"timeout_ms":14000,"output_channel":"items"}"#,
            true,
        ),
        ("http", r#"{"url":"https://api.example.com","method":"FETCH"}"#, false),
        ("http", r#"{"method":"GET"}"#, false),
        (
            "classifier",
            r#"{"model":"m","labels":["a","b-1","other"],"instructions":"Pick one.","target_channel":"intent"}"#,
            true,
        ),
        ("classifier", r#"{"labels":["a",""],"target_channel":"intent"}"#, false),
        ("set_value", r#"{"channel":"flags","value":{"step":1,"reviewed":true}}"#, true),
        ("set_value", r#"{"channel":"flags"}"#, false),
        (
            "append_message",
            r#"{"channel":"messages","role":"assistant","content":"Hi","name":"assistant"}"#,
            true,
        ),
        ("append_message", r#"{"channel":"messages","role":"robot","content":"Hi"}"#, false),
        ("noop", r#"{"note":"later"}"#, true),
        ("noop", r#"{"note":"later","extra":1}"#, false),
        ("wait", r#"{"duration_ms":1000,"reason":"cool down"}"#, true),
        ("wait", r#"{"duration_ms":-1}"#, false),
        ("wait", r#"{"duration_ms":1.5}"#, false),
        // The Ilmek runtime's types: open to keys they do not read, `arguments` of any kind.
        (
            "mcp_tool",
            r#"{"server":"github","tool":"github__search","argumentsFrom":"query","to":"hits","text":true}"#,
            true,
        ),
        ("mcp_tool", r#"{"server":"gh","tool":"gh__search","arguments":"q=1","other":1}"#, true),
        ("mcp_tool", r#"{"tool":"github__search"}"#, false),
        ("mcp_tool", r#"{"server":"github","tool":"github__search","to":5}"#, false),
        ("mcp_resource", r#"{"server":"github","uri":""}"#, false),
        ("skill", r#"{"skill":"brand-voice","to":"system"}"#, true),
        ("skill", r#"{"skill":null}"#, false),
        ("skills", r#"{"intro":null}"#, true),
        ("skills", r#"{"to":""}"#, false),
    ];
    for (type_name, raw, valid) in configs {
        let (quick, validator) = &quick_by_type[type_name];
        let quick = quick.as_ref().expect("decided");
        assert_eq!(
            validator.is_valid(&serde_json::from_str(raw).expect("json")),
            valid,
            "the case itself: {raw}"
        );
        assert_eq!(quick.accepts(raw), valid, "{type_name}: {raw}");
    }
}

// --- Property test: a `true` is never wrong ----------------------------------------------

fn plain_property() -> impl Strategy<Value = Value> {
    let kind = prop_oneof![
        Just(json!("string")),
        Just(json!("number")),
        Just(json!("integer")),
        Just(json!("boolean")),
        Just(json!(["string", "null"])),
        Just(json!("array")),
        Just(json!("object")),
    ];
    use proptest::option::weighted;
    (
        weighted(0.7, kind),
        weighted(0.3, 0u64..4),
        weighted(0.3, 0u64..4),
        weighted(0.4, -3i64..3),
        weighted(0.4, prop_oneof![Just(json!(1)), Just(json!(2.5)), Just(json!(0.1))]),
        weighted(0.15, Just(json!(["a", "bb", "ç"]))),
        weighted(
            0.3,
            prop_oneof![Just(json!({"type": "string", "maxLength": 1})), Just(json!({"type": "integer"}))],
        ),
        weighted(
            0.15,
            prop_oneof![
                Just(("pattern", json!("^a"))),
                Just(("multipleOf", json!(0.5))),
                Just(("exclusiveMaximum", json!(1))),
                Just(("format", json!("email"))),
                Just(("uniqueItems", json!(true))),
            ],
        ),
    )
        .prop_map(|(kind, min_len, max_len, minimum, maximum, strings, items, extra)| {
            let mut s = serde_json::Map::new();
            if let Some(k) = kind {
                s.insert("type".into(), k);
            }
            if let Some(n) = min_len {
                s.insert("minLength".into(), json!(n));
                s.insert("minItems".into(), json!(n));
            }
            if let Some(n) = max_len {
                s.insert("maxLength".into(), json!(n));
            }
            if let Some(n) = minimum {
                s.insert("minimum".into(), json!(n));
            }
            if let Some(n) = maximum {
                s.insert("maximum".into(), n);
            }
            if let Some(e) = strings {
                s.insert("enum".into(), e);
            }
            if let Some(i) = items {
                s.insert("items".into(), i);
            }
            if let Some((k, v)) = extra {
                s.insert(k.into(), v);
            }
            s.insert("description".into(), json!("annotated"));
            Value::Object(s)
        })
}

fn leaf() -> impl Strategy<Value = Value> {
    let number = prop_oneof![
        (-4i64..4).prop_map(|n| n.to_string()),
        (-4i64..4).prop_map(|n| format!("{n}.5")),
        (-2i64..3).prop_map(|n| format!("{n}.0")),
        prop_oneof![Just("0.1"), Just("1e0"), Just("2.5e-1"), Just("0.30000000000000004"), Just("-0")]
            .prop_map(str::to_owned),
    ]
    .prop_map(|t| serde_json::from_str::<Value>(&t).unwrap_or(Value::Null));
    let string = prop_oneof![
        Just(""),
        Just("a"),
        Just("bb"),
        Just("ç"),
        Just("a\"b"),
        Just("ab\u{1F600}"),
        Just("\n"),
        Just("abcd")
    ]
    .prop_map(Value::from);
    prop_oneof![
        3 => string,
        3 => number,
        1 => Just(json!(null)),
        1 => any::<bool>().prop_map(Value::from),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        6 => leaf(),
        1 => proptest::collection::vec(leaf(), 0..4).prop_map(Value::Array),
        1 => proptest::collection::vec(("[a-c]", leaf()), 0..3).prop_map(|m| Value::Object(m.into_iter().collect())),
    ]
}

fn schema() -> impl Strategy<Value = Value> {
    (
        proptest::collection::vec(("[a-d]", plain_property()), 0..4),
        proptest::collection::vec("[a-d]", 0..2),
        any::<bool>(),
        proptest::option::of(0u64..3),
    )
        .prop_map(|(props, required, closed, max_props)| {
            let props: serde_json::Map<String, Value> = props.into_iter().collect();
            let mut s = json!({"type": "object", "properties": props, "required": required});
            if closed {
                s["additionalProperties"] = json!(false);
            }
            if let Some(m) = max_props {
                s["maxProperties"] = json!(m);
            }
            s
        })
}

fn config() -> impl Strategy<Value = String> {
    proptest::collection::vec(("[a-d]", value()), 0..4).prop_map(|members| {
        let map: serde_json::Map<String, Value> = members.into_iter().collect();
        serde_json::to_string(&Value::Object(map)).unwrap_or_default()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5000))]

    /// Whatever the text check accepts, `jsonschema` accepts too.
    #[test]
    fn an_accepted_config_is_valid(schema in schema(), config in config()) {
        // What `check_configs` does: a schema that does not compile is not used at all.
        let Ok(validator) = crate::config_schema::compile(&schema) else { return Ok(()) };
        let Some(quick) = QuickSchema::of(&schema) else { return Ok(()) };
        if quick.accepts(&config) {
            let value: Value = serde_json::from_str(&config).unwrap_or_default();
            prop_assert!(validator.is_valid(&value), "accepted, but invalid: {} against {}", config, schema);
        }
    }
}
/// The check is worth having: on the property test's schemas it says "valid" for nearly every
/// valid config (all but those with `1.0` for an integer and the like).
#[test]
fn most_valid_configs_are_accepted_on_their_text() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let (mut valid, mut accepted) = (0, 0);
    for _ in 0..3000 {
        let (Ok(s), Ok(c)) = (schema().new_tree(&mut runner), config().new_tree(&mut runner)) else {
            continue;
        };
        let (schema, config) = (s.current(), c.current());
        let (Ok(validator), Some(quick)) = (crate::config_schema::compile(&schema), QuickSchema::of(&schema))
        else {
            continue;
        };
        if validator.is_valid(&serde_json::from_str(&config).unwrap_or_default()) {
            valid += 1;
            accepted += usize::from(quick.accepts(&config));
        }
    }
    assert!(valid > 300, "too few valid configs to say anything: {valid}");
    assert!(accepted * 100 >= valid * 95, "{accepted} of {valid} valid configs accepted");
}
