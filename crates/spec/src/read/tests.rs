use super::*;

fn codes_of(p: &Parsed) -> Vec<(&str, &str)> {
    p.diagnostics.iter().map(|d| (d.code.as_str(), d.pointer.as_str())).collect()
}

#[test]
fn missing_collections_read_as_empty() {
    let p = parse_spec("{\"name\": null}");
    assert!(p.diagnostics.is_empty());
    let spec = p.spec.unwrap();
    assert!(spec.name.is_none() && spec.channels.is_empty() && spec.nodes.is_empty());
}

#[test]
fn not_an_object_is_refused() {
    for (t, got) in [("null", "null"), ("[]", "an array"), ("\"graph\"", "a string"), ("7", "a number")] {
        let p = parse_spec(t);
        assert!(p.spec.is_none());
        assert_eq!(p.diagnostics[0].message, format!("a graph spec must be an object, got {got}"));
    }
}

#[test]
fn unknown_fields_are_named_but_predicate_keys_are_not() {
    let text = r#"{"name":"x","extra":1,"channels":{"c":{"reducer":"append","doc":"?"}},
        "nodes":[{"id":"a","type":"t","position":{"x":1}}],
        "edges":[{"from":"__start__","to":"a","label":"go","when":{"channel":"c","eq":1,"note":"kept"}}]}"#;
    let p = parse_spec(text);
    assert_eq!(
        codes_of(&p),
        vec![
            ("spec/unknown-field", "/extra"),
            ("spec/unknown-field", "/channels/c/doc"),
            ("spec/unknown-field", "/nodes/0/position"),
            ("spec/unknown-field", "/edges/0/label"),
        ]
    );
    assert!(p.diagnostics[2].message.contains("\"position\" in node \"a\""));
    assert!(p.diagnostics.iter().all(|d| d.span.is_some()));
    let spec = p.spec.unwrap();
    assert_eq!(spec.edges[0].when.as_ref().unwrap().get("note").unwrap(), "kept");
}

#[test]
fn structural_junk_is_reported_everywhere_with_pointers() {
    let text = r#"{"name":5,"channels":{"c":null,"d":{"reducer":7}},
        "nodes":[3,{"type":"t"},{"id":9},{"id":"ok","config":[]}],
        "edges":["x",{"to":"a"},{"from":"a","to":"b","when":"c == 1"}]}"#;
    let p = parse_spec(text);
    assert!(p.spec.is_none());
    let got = codes_of(&p);
    assert_eq!(
        got,
        vec![
            ("spec/invalid-field", "/name"),
            ("spec/channel-not-object", "/channels/c"),
            ("spec/unknown-reducer", "/channels/d/reducer"),
            ("spec/node-not-object", "/nodes/0"),
            ("spec/invalid-node-id", "/nodes/1/id"),
            ("spec/invalid-node-id", "/nodes/2/id"),
            ("spec/invalid-field", "/nodes/3/config"),
            ("spec/edge-not-object", "/edges/0"),
            ("spec/unknown-edge-source", "/edges/1/from"),
            ("spec/malformed-predicate", "/edges/2/when"),
        ]
    );
    assert_eq!(p.diagnostics[1].message, "channel \"c\": config must be an object, got null");
    assert_eq!(p.diagnostics[4].message, "node name must be a non-empty string, got null");
    assert_eq!(p.diagnostics[5].message, "node name must be a non-empty string, got 9");
    assert_eq!(
        p.diagnostics[8].message,
        "the edge to \"a\" has no \"from\" field: an edge needs the node it starts at"
    );
}

#[test]
fn invalid_utf8_is_a_diagnostic() {
    let p = parse_spec_bytes(b"{\"name\": \"\xc3\x28\"}");
    assert!(p.spec.is_none());
    assert_eq!(p.diagnostics[0].code, json::codes::INVALID_UTF8);
}

/// Texts of every kind the reader meets: the fixtures, the corpus and generated documents.
fn texts() -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut texts = vec![crate::generate::generate_text(300, 5), crate::generate::generate_text(40, 1)];
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
    texts
}

/// The streaming pass refuses only what the checked parse refuses, so a sound document is read
/// once; and what it reads, it reads with configs kept as their text.
#[test]
fn the_streaming_pass_takes_every_text_the_checked_parse_takes() {
    let mut read = 0;
    for text in texts() {
        let streamed = stream(&text, None);
        assert_eq!(streamed.is_ok(), json::parse(&text).is_ok(), "{}", &text[..text.len().min(200)]);
        if let Ok((Some(spec), _)) = streamed {
            assert!(spec.nodes.iter().all(|n| n.config.raw_text().is_some() || n.config.is_empty()));
            read += 1;
        }
    }
    assert!(read > 10, "only {read} documents were read");
}

/// Read from a shared text, configs refer to it and the document is the same.
#[test]
fn a_shared_text_gives_the_same_document() {
    for text in texts() {
        let alone = parse_spec(&text);
        let shared = parse_spec_shared(&SharedText::from(text.clone()));
        assert_eq!(alone, shared, "{}", &text[..text.len().min(200)]);
        if let (Some(a), Some(b)) = (&alone.spec, &shared.spec) {
            assert!(a.identical(b));
        }
    }
}

/// Configs nested as deep as the parser allows below a node are read; one level more is the
/// checked parse's error, in a config, in an edge's condition and in an unknown field.
#[test]
fn configs_nest_as_deep_as_the_parser_allows() {
    // The document, `nodes`, the node and the config are four levels: 123 more fit.
    let nested = |levels: usize| format!("{}1{}", "[".repeat(levels), "]".repeat(levels));
    let doc = |inner: &str| format!(r#"{{"nodes":[{{"id":"a","type":"t","config":{{"x":{inner}}}}}]}}"#);
    let deepest = parse_spec(&doc(&nested(json::MAX_DEPTH - 5)));
    assert!(deepest.spec.is_some(), "{:?}", deepest.diagnostics);
    let too_deep = parse_spec(&doc(&nested(json::MAX_DEPTH - 4)));
    assert!(too_deep.spec.is_none());
    assert_eq!(too_deep.diagnostics[0].code, json::codes::TOO_DEEP);
    assert!(stream(&doc(&nested(json::MAX_DEPTH - 4)), None).is_err());
}
