//! Every code the Weaveflow reader, validator, detection and conversions can emit is listed in
//! `docs/diagnostics.md`.

use std::path::Path;

fn consts(source: &str) -> Vec<String> {
    source
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub const "))
        .filter_map(|l| l.split('"').nth(1))
        .filter(|c| c.contains('/'))
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_code_is_documented() {
    let page =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/diagnostics.md"))
            .unwrap_or_else(|e| panic!("docs/diagnostics.md: {e}"));
    let mut codes = consts(include_str!("../src/weaveflow/codes.rs"));
    codes.extend(consts(include_str!("../src/detect.rs")));
    codes.extend(consts(include_str!("../src/convert/loss.rs")));
    assert!(codes.len() > 50, "{codes:?}");
    let missing: Vec<&String> = codes.iter().filter(|c| !page.contains(&format!("| `{c}` |"))).collect();
    assert!(missing.is_empty(), "docs/diagnostics.md lacks {missing:?}");
}
