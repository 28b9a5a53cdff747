//! The smallest change between two texts: what the text pane is sent when the document changed
//! under it (a canvas edit, an undo, a reload), so that only the changed element's lines change
//! in the pane and everything else (the scroll position, the cursor, folds) stays.
//!
//! The texts share a long prefix and suffix (one node changed in a 5 MB document): those are
//! found a block at a time, at the speed of comparing memory. What is left between them is
//! usually a few lines; when it is more (a rename that reaches the edges far below, a reformat)
//! it is compared line by line with `similar` (Myers), with a deadline so that a text changed
//! everywhere costs a bounded time and gives a coarser, still exact, answer. Each changed run of
//! lines is then trimmed to the characters that differ.

use std::ops::Range;
use std::time::{Duration, Instant};

use similar::{Algorithm, DiffOp};

/// One change: `old[old]` becomes `new[new]` (byte ranges, on character boundaries).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Hunk {
    pub old: Range<usize>,
    pub new: Range<usize>,
}

/// A middle part at most this long is one change without a line diff.
const SMALL: usize = 4096;

/// The line diff of a large middle part gives up refining after this long (the answer stays
/// exact, only coarser: fewer, larger changes).
const DEADLINE: Duration = Duration::from_millis(40);

/// The changes that turn `old` into `new`: ascending, apart (never touching), each trimmed to
/// what differs. None when the texts are equal.
pub(crate) fn hunks(old: &str, new: &str) -> Vec<Hunk> {
    let prefix = common_prefix(old.as_bytes(), new.as_bytes());
    let prefix = floor_boundary(old, new, prefix);
    let most = old.len().min(new.len()) - prefix;
    let suffix = common_suffix(&old.as_bytes()[prefix..], &new.as_bytes()[prefix..]).min(most);
    let suffix = suffix_boundary(old, new, suffix);
    let (old_end, new_end) = (old.len() - suffix, new.len() - suffix);
    if prefix == old_end && prefix == new_end {
        return Vec::new();
    }
    if old_end - prefix <= SMALL && new_end - prefix <= SMALL {
        return vec![Hunk { old: prefix..old_end, new: prefix..new_end }];
    }
    // Whole lines on both sides: the part before `prefix` and after the ends is common, so
    // widening both by the same bytes keeps it so.
    let start = old[..prefix].rfind('\n').map_or(0, |i| i + 1);
    let widen = old[old_end..].find('\n').map_or(suffix, |i| i + 1).min(suffix);
    let (old_end, new_end) = (old_end + widen, new_end + widen);
    let old_lines = lines(&old[start..old_end]);
    let new_lines = lines(&new[start..new_end]);
    let deadline = Instant::now() + DEADLINE;
    let ops = similar::capture_diff_slices_deadline(Algorithm::Myers, &old_lines, &new_lines, Some(deadline));
    let old_at = offsets(&old_lines, start);
    let new_at = offsets(&new_lines, start);
    let mut out: Vec<Hunk> = Vec::new();
    // The places come from the ops' lengths, walked in order: the indices `similar` reports
    // for a delete or an insert next to an equal run do not always say where it is.
    let (mut o, mut n) = (0usize, 0usize);
    for op in ops {
        let (old_len, new_len) = match op {
            DiffOp::Equal { len, .. } => {
                o += len;
                n += len;
                continue;
            }
            DiffOp::Delete { old_len, .. } => (old_len, 0),
            DiffOp::Insert { new_len, .. } => (0, new_len),
            DiffOp::Replace { old_len, new_len, .. } => (old_len, new_len),
        };
        let hunk = Hunk { old: old_at[o]..old_at[o + old_len], new: new_at[n]..new_at[n + new_len] };
        o += old_len;
        n += new_len;
        match out.last_mut() {
            // Ops that meet (a delete then an insert) are one change.
            Some(last) if last.old.end == hunk.old.start && last.new.end == hunk.new.start => {
                last.old.end = hunk.old.end;
                last.new.end = hunk.new.end;
            }
            _ => out.push(hunk),
        }
    }
    out.into_iter().map(|h| trimmed(old, new, h)).collect()
}

/// A hunk without the characters its two sides share at either end.
fn trimmed(old: &str, new: &str, h: Hunk) -> Hunk {
    let (a, b) = (&old[h.old.clone()], &new[h.new.clone()]);
    let p = floor_boundary(a, b, common_prefix(a.as_bytes(), b.as_bytes()));
    let most = a.len().min(b.len()) - p;
    let s = common_suffix(&a.as_bytes()[p..], &b.as_bytes()[p..]).min(most);
    let s = suffix_boundary(a, b, s);
    Hunk { old: h.old.start + p..h.old.end - s, new: h.new.start + p..h.new.end - s }
}

/// The lines of `text`, each with its line break.
fn lines(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

/// Where each line starts (and, last, where the text ends), from `base`.
fn offsets(lines: &[&str], base: usize) -> Vec<usize> {
    let mut at = Vec::with_capacity(lines.len() + 1);
    let mut pos = base;
    at.push(pos);
    for l in lines {
        pos += l.len();
        at.push(pos);
    }
    at
}

/// Bytes compared a block at a time (a slice comparison is a `memcmp`).
const BLOCK: usize = 4096;

fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + BLOCK <= n && a[i..i + BLOCK] == b[i..i + BLOCK] {
        i += BLOCK;
    }
    i + a[i..n].iter().zip(&b[i..n]).take_while(|(x, y)| x == y).count()
}

fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let (a, b) = (&a[a.len() - n..], &b[b.len() - n..]);
    let mut k = 0;
    while k + BLOCK <= n && a[n - k - BLOCK..n - k] == b[n - k - BLOCK..n - k] {
        k += BLOCK;
    }
    k + a[..n - k].iter().rev().zip(b[..n - k].iter().rev()).take_while(|(x, y)| x == y).count()
}

/// A place a change may start or end at: between characters, and not inside a `\r\n` (the
/// editor counts one as a single place).
fn boundary(text: &str, i: usize) -> bool {
    let b = text.as_bytes();
    text.is_char_boundary(i) && !(i > 0 && i < b.len() && b[i - 1] == b'\r' && b[i] == b'\n')
}

/// The last place at or before `i` that is a boundary in both texts (they agree before it).
fn floor_boundary(old: &str, new: &str, mut i: usize) -> usize {
    while i > 0 && !(boundary(old, i) && boundary(new, i)) {
        i -= 1;
    }
    i
}

/// The longest common suffix of at most `suffix` bytes that starts on a boundary in both texts.
fn suffix_boundary(old: &str, new: &str, mut suffix: usize) -> usize {
    while suffix > 0 && !(boundary(old, old.len() - suffix) && boundary(new, new.len() - suffix)) {
        suffix -= 1;
    }
    suffix
}

/// `old` with the hunks applied (their `new` parts taken from `new`): for tests and checks.
#[cfg(test)]
pub(crate) fn apply(old: &str, new: &str, hunks: &[Hunk]) -> String {
    let mut out = String::with_capacity(new.len());
    let mut at = 0;
    for h in hunks {
        out.push_str(&old[at..h.old.start]);
        out.push_str(&new[h.new.clone()]);
        at = h.old.end;
    }
    out.push_str(&old[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn check(old: &str, new: &str) -> Vec<Hunk> {
        let hs = hunks(old, new);
        assert_eq!(apply(old, new, &hs), new, "hunks {hs:?}");
        for w in hs.windows(2) {
            assert!(w[0].old.end < w[1].old.start, "apart: {hs:?}");
        }
        hs
    }

    #[test]
    fn equal_texts_have_no_change() {
        assert!(check("abc\n", "abc\n").is_empty());
        assert!(check("", "").is_empty());
    }

    #[test]
    fn one_value_changes_in_place() {
        let hs = check("{\n  \"model\": \"gpt-4\"\n}\n", "{\n  \"model\": \"gpt-5\"\n}\n");
        assert_eq!(hs, vec![Hunk { old: 18..19, new: 18..19 }]);
    }

    #[test]
    fn far_apart_changes_stay_apart_and_the_lines_between_are_untouched() {
        let mut old = String::new();
        for i in 0..5000 {
            old.push_str(&format!("    {{\"id\": \"n{i}\", \"type\": \"llm\"}},\n"));
        }
        let new = old.replace("\"n10\"", "\"renamed\"").replace("\"n4990\"", "\"renamed\"");
        let hs = check(&old, &new);
        assert_eq!(hs.len(), 2, "{hs:?}");
        assert!(hs.iter().all(|h| h.old.len() < 10 && h.new.len() < 12), "{hs:?}");
    }

    #[test]
    fn windows_line_breaks_are_never_split() {
        let hs = check("a\r\nb", "a\rX\nb");
        assert!(hs.iter().all(|h| h.old.start != 2), "no change starts between \\r and \\n: {hs:?}");
        check("a\r\n", "a\r");
        check("a\n", "a\r\n");
        check(&"x\r\n".repeat(3000), &"x\r\n".repeat(2999));
    }

    #[test]
    fn multibyte_characters_are_never_split() {
        check("naïve ü\n", "naïve ö\n");
        check("€€€", "€£€");
        check("ab", "a€b");
        let big_old = "x€\n".repeat(3000);
        let big_new = big_old.replacen("x€", "y£", 1).replacen("x€\nx€\nx€", "z", 1);
        check(&big_old, &big_new);
    }

    proptest! {
        #[test]
        fn hunks_turn_old_into_new(
            old in "(\\{|\\}|a|b|€|\n| ){0,300}",
            edits in prop::collection::vec((0usize..400, 0usize..5, "(x|y|ü|\n){0,4}"), 0..6),
        ) {
            let mut new: Vec<char> = old.chars().collect();
            for (at, len, ins) in edits {
                let at = at.min(new.len());
                let end = (at + len).min(new.len());
                new.splice(at..end, ins.chars());
            }
            let new: String = new.into_iter().collect();
            check(&old, &new);
            // And the same far from the start, where the line diff works.
            let pad = "{ \"pad\": 1 },\n".repeat(600);
            check(&format!("{pad}{old}{pad}"), &format!("{pad}{new}{pad}"));
            check(&format!("{old}{pad}{old}"), &format!("{new}{pad}{new}"));
        }
    }
}
