//! Issue 17: a Weaveflow definition without `version`, or with a miscased key, is still
//! detected as Weaveflow by its other keys, and gets Weaveflow's messages (not GraphSpec's
//! `.edge(START, ...)` advice). One fixture each (`detect/<name>.json`) with the diagnostics
//! beside it (`detect/<name>.diagnostics.snap`); regenerate with `INSTA_UPDATE=always`.

mod weaveflow_support;

use trellis_formats::detect::{detect, Format};
use trellis_formats::weaveflow::{check_text, ValidateOptions};
use weaveflow_support::{beside, expect, finish, fixtures, inputs, read};

#[test]
fn a_definition_without_version_or_with_a_miscased_key_is_weaveflow_with_weaveflow_messages() {
    let mut failures = Vec::new();
    let found = inputs(&fixtures().join("detect"));
    assert_eq!(found.len(), 2, "{found:?}");
    for input in found {
        let text = read(&input);
        let name = input.file_name().map(|n| n.to_string_lossy().into_owned());
        assert_eq!(detect(name.as_deref(), &text), Ok(Format::Weaveflow), "{}", input.display());
        let diagnostics = check_text(&text, None, &ValidateOptions::default()).diagnostics;
        assert!(!diagnostics.is_empty(), "{}: the reader must say what is wrong", input.display());
        for d in &diagnostics {
            assert!(d.code.starts_with("weaveflow/"), "{}: {} is not Weaveflow's", input.display(), d.code);
            assert!(!d.message.contains(".edge("), "{}: GraphSpec advice: {}", input.display(), d.message);
        }
        let actual = serde_json::to_value(&diagnostics).unwrap_or_default();
        failures.extend(expect(&beside(&input, "diagnostics.json"), &actual));
    }
    finish(failures);
}
