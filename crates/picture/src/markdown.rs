//! A note's Markdown as the plain lines a picture writes in the note's box: headings (bold),
//! paragraphs, list items with their bullet or number, code, quotes, each wrapped to the box's
//! width. What the canvas renders as markup (emphasis, code spans, links) becomes its text; a
//! link keeps its text only and an image its alt text in brackets, as on the canvas
//! (ui/src/annotations/AnnotationLayer.tsx). Raw HTML is kept as the text it is (escaped when
//! written), never interpreted. Parsing is pulldown-cmark's (CommonMark, as react-markdown).

use pulldown_cmark::{Event, Parser, Tag, TagEnd};

/// One line of a note as drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub text: String,
    /// A heading's line (drawn bold).
    pub bold: bool,
}

/// A block of text before wrapping: what starts its first line and its following lines.
struct Block {
    text: String,
    first: String,
    rest: String,
    bold: bool,
    /// Code: its line breaks are kept and its lines are not joined.
    verbatim: bool,
}

/// The blocks of `md`, in order (at most `max_blocks`: a note shows only what fits).
fn blocks(md: &str, max_blocks: usize) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    let mut current: Option<Block> = None;
    // Per open list: the next number (None: a bulleted list).
    let mut lists: Vec<Option<u64>> = Vec::new();
    let mut quote = 0usize;
    let mut pending_item: Option<String> = None;

    let finish = |current: &mut Option<Block>, out: &mut Vec<Block>| {
        if let Some(b) = current.take() {
            if !b.text.trim().is_empty() {
                out.push(b);
            }
        }
    };
    for event in Parser::new(md) {
        if out.len() >= max_blocks {
            break;
        }
        match event {
            Event::Start(Tag::Heading { .. }) => {
                finish(&mut current, &mut out);
                current = Some(open(&mut pending_item, &lists, quote, true, false));
            }
            Event::Start(Tag::Paragraph) => {
                finish(&mut current, &mut out);
                current = Some(open(&mut pending_item, &lists, quote, false, false));
            }
            Event::Start(Tag::CodeBlock(_)) => {
                finish(&mut current, &mut out);
                current = Some(open(&mut pending_item, &lists, quote, false, true));
            }
            Event::Start(Tag::List(start)) => {
                finish(&mut current, &mut out);
                lists.push(start);
            }
            Event::End(TagEnd::List(_)) => {
                finish(&mut current, &mut out);
                lists.pop();
            }
            Event::Start(Tag::Item) => {
                finish(&mut current, &mut out);
                let marker = match lists.last_mut() {
                    Some(Some(n)) => {
                        let m = format!("{n}. ");
                        *n += 1;
                        m
                    }
                    _ => "•  ".to_owned(),
                };
                pending_item = Some(marker);
            }
            Event::Start(Tag::BlockQuote(_)) => {
                finish(&mut current, &mut out);
                quote += 1;
            }
            Event::End(TagEnd::BlockQuote(_)) => {
                finish(&mut current, &mut out);
                quote = quote.saturating_sub(1);
            }
            Event::Start(Tag::Image { .. }) => push(&mut current, &mut pending_item, &lists, quote, "["),
            Event::End(TagEnd::Image) => push(&mut current, &mut pending_item, &lists, quote, "]"),
            Event::End(TagEnd::Heading(_) | TagEnd::Paragraph | TagEnd::CodeBlock | TagEnd::Item) => {
                finish(&mut current, &mut out);
            }
            Event::Text(t) | Event::Code(t) | Event::Html(t) | Event::InlineHtml(t) => {
                push(&mut current, &mut pending_item, &lists, quote, &t);
            }
            Event::InlineMath(t) | Event::DisplayMath(t) => {
                push(&mut current, &mut pending_item, &lists, quote, &t);
            }
            Event::FootnoteReference(t) => {
                push(&mut current, &mut pending_item, &lists, quote, &format!("[{t}]"))
            }
            Event::SoftBreak => push(&mut current, &mut pending_item, &lists, quote, " "),
            Event::HardBreak => push(&mut current, &mut pending_item, &lists, quote, "\n"),
            Event::Rule => {
                finish(&mut current, &mut out);
                out.push(Block {
                    text: "────────".into(),
                    first: indent(&lists, quote),
                    rest: String::new(),
                    bold: false,
                    verbatim: true,
                });
            }
            Event::TaskListMarker(done) => {
                push(&mut current, &mut pending_item, &lists, quote, if done { "☑ " } else { "☐ " });
            }
            _ => {}
        }
    }
    finish(&mut current, &mut out);
    out
}

/// The indentation of a block: a bar per enclosing quote, room for each enclosing list's marker.
fn indent(lists: &[Option<u64>], quote: usize) -> String {
    let mut s = "│ ".repeat(quote);
    s.push_str(&"   ".repeat(lists.len().saturating_sub(1)));
    s
}

/// A new block at the current nesting; a list item's first block carries its marker.
fn open(
    pending_item: &mut Option<String>,
    lists: &[Option<u64>],
    quote: usize,
    bold: bool,
    verbatim: bool,
) -> Block {
    let base = indent(lists, quote);
    let first = match pending_item.take() {
        Some(marker) => format!("{base}{marker}"),
        None if lists.is_empty() => base.clone(),
        None => format!("{base}   "),
    };
    let rest = if lists.is_empty() { base } else { format!("{base}   ") };
    Block { text: String::new(), first, rest, bold, verbatim }
}

/// Appends text to the open block, opening one (a tight list item's text has no paragraph).
fn push(
    current: &mut Option<Block>,
    pending_item: &mut Option<String>,
    lists: &[Option<u64>],
    quote: usize,
    t: &str,
) {
    current.get_or_insert_with(|| open(pending_item, lists, quote, false, false)).text.push_str(t);
}

/// The note's lines wrapped to `columns` characters (display width), at most `max_lines`; when
/// the text goes on past them, the last line ends with "…".
pub fn plain_lines(md: &str, columns: usize, max_lines: usize) -> Vec<Line> {
    let columns = columns.max(4);
    let mut out: Vec<Line> = Vec::new();
    if max_lines == 0 {
        return out;
    }
    let mut more = false;
    'blocks: for b in blocks(md, max_lines + 1) {
        let pieces: Vec<&str> = if b.verbatim {
            b.text.trim_end_matches('\n').split('\n').collect()
        } else {
            b.text.split('\n').collect()
        };
        let mut first = true;
        for piece in pieces {
            let piece = if b.verbatim { piece.trim_end() } else { piece.trim() };
            let options = textwrap::Options::new(columns)
                .initial_indent(if first { &b.first } else { &b.rest })
                .subsequent_indent(&b.rest)
                .break_words(true);
            first = false;
            let wrapped =
                if piece.is_empty() { vec![b.rest.clone().into()] } else { textwrap::wrap(piece, options) };
            for l in wrapped {
                if out.len() == max_lines {
                    more = true;
                    break 'blocks;
                }
                out.push(Line { text: l.into_owned(), bold: b.bold });
            }
        }
    }
    if more {
        if let Some(last) = out.last_mut() {
            let keep: String = last.text.chars().take(columns.saturating_sub(1)).collect();
            last.text = format!("{}…", keep.trim_end());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(md: &str, columns: usize, max: usize) -> Vec<String> {
        plain_lines(md, columns, max).into_iter().map(|l| l.text).collect()
    }

    #[test]
    fn markup_becomes_plain_text() {
        let md = "# Refunds\nOver 100 EUR need *approval* by `ops`.\n\n- one\n- [two](https://example.com)\n\n1. first\n2. second\n\n![diagram](x.png)";
        let lines = plain_lines(md, 60, 20);
        assert_eq!(lines[0], Line { text: "Refunds".into(), bold: true });
        assert_eq!(
            lines[1..].iter().map(|l| l.text.as_str()).collect::<Vec<_>>(),
            ["Over 100 EUR need approval by ops.", "•  one", "•  two", "1. first", "2. second", "[diagram]"]
        );
        assert!(lines[1..].iter().all(|l| !l.bold));
    }

    #[test]
    fn raw_html_stays_text() {
        assert_eq!(texts("<script>alert(1)</script>", 60, 5), ["<script>alert(1)</script>"]);
        assert_eq!(texts("a <b>bold</b> & c", 60, 5), ["a <b>bold</b> & c"]);
    }

    #[test]
    fn long_text_wraps_and_is_clipped_with_an_ellipsis() {
        let md = "word ".repeat(200);
        let lines = texts(&md, 20, 3);
        assert_eq!(lines.len(), 3);
        assert!(lines.iter().all(|l| l.chars().count() <= 20), "{lines:?}");
        assert!(lines[2].ends_with('…'), "{lines:?}");
        // One word longer than the box is broken, not overflowing.
        let long = texts(&"x".repeat(50), 20, 10);
        assert_eq!(long.len(), 3);
        assert!(long.iter().all(|l| l.chars().count() <= 20));
    }

    #[test]
    fn code_blocks_keep_their_lines_and_nothing_draws_nothing() {
        assert_eq!(texts("```\nlet a = 1;\nlet b = 2;\n```", 40, 10), ["let a = 1;", "let b = 2;"]);
        assert!(texts("", 40, 10).is_empty());
        assert!(texts("some text", 40, 0).is_empty());
        assert_eq!(texts("> quoted", 40, 4), ["│ quoted"]);
    }

    #[test]
    fn nested_lists_indent() {
        assert_eq!(texts("- a\n  - b\n- c", 40, 10), ["•  a", "   •  b", "•  c"]);
    }
}
