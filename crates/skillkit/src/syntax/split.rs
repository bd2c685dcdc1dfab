//! Splitting a SKILL.md into frontmatter and body, exactly, and recording every way the file's
//! delimiters differ from what strict loaders expect (BOM, leading lines, trailing spaces, a
//! missing closing line, `---` inside a value).

use crate::syntax::text::Span;

/// Where the parts of a SKILL.md are. Offsets are into the whole file text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Split {
    /// The file starts with a UTF-8 byte order mark (3 bytes).
    pub bom: bool,
    /// Blank lines or HTML comments before the opening `---`.
    pub leading: Option<Span>,
    /// The opening delimiter line, without its line ending.
    pub open: Option<Span>,
    /// The YAML text between the delimiters (empty span for empty frontmatter).
    pub yaml: Option<Span>,
    /// The closing delimiter line, without its line ending.
    pub close: Option<Span>,
    /// Whether a line ending follows the closing delimiter (DeepAgents needs one).
    pub close_newline: bool,
    /// Everything after the closing line (the whole text after the BOM when there is no
    /// frontmatter).
    pub body: Span,
    /// Trailing spaces or tabs after `---` on a delimiter line.
    pub delimiter_trailing: Vec<Span>,
    /// A line starting with `---` followed by text (e.g. `---# Title`) where a closing line was
    /// probably meant. Only set when the frontmatter is unclosed.
    pub glued_close: Option<Span>,
    /// Where skills-ref's `content.split("---", 2)` ends the frontmatter when that is before the
    /// real closing line: the offset of the first `---` inside the YAML.
    pub skills_ref_cut: Option<usize>,
    /// The file uses CRLF line endings (at least on its first line).
    pub crlf: bool,
}

impl Split {
    pub fn has_frontmatter(&self) -> bool {
        self.open.is_some()
    }
    pub fn is_closed(&self) -> bool {
        self.close.is_some()
    }
}

/// Lines of `text` from `from`: (line span without ending, offset after the ending).
fn lines_from(text: &str, from: usize) -> impl Iterator<Item = (Span, usize)> + '_ {
    let mut at = from;
    std::iter::from_fn(move || {
        if at >= text.len() {
            return None;
        }
        let rest = &text[at..];
        let (content_len, next) = match rest.find('\n') {
            Some(i) => (i, at + i + 1),
            None => (rest.len(), text.len()),
        };
        let mut end = at + content_len;
        if end > at && text.as_bytes()[end - 1] == b'\r' {
            end -= 1;
        }
        let span = Span::new(at, end);
        at = next;
        Some((span, next))
    })
}

/// Is this line a `---` delimiter, possibly followed by spaces or tabs? Returns the span of the
/// trailing whitespace, if any.
fn delimiter(line: &str) -> Option<Option<(usize, usize)>> {
    let rest = line.strip_prefix("---")?;
    if rest.bytes().all(|b| b == b' ' || b == b'\t') {
        Some((!rest.is_empty()).then_some((3, line.len())))
    } else {
        None
    }
}

/// Split `text` (a whole SKILL.md, already decoded).
pub fn split(text: &str) -> Split {
    let mut out = Split::default();
    let mut at = 0;
    if text.starts_with('\u{feff}') {
        out.bom = true;
        at = 3;
    }
    out.crlf = text[at..].find('\n').is_some_and(|i| i > 0 && text.as_bytes()[at + i - 1] == b'\r');
    out.body = Span::new(at, text.len());

    // Skip blank lines and HTML comments before the opening delimiter.
    let start = at;
    let mut in_comment = false;
    let mut open = None;
    for (line, next) in lines_from(text, start) {
        let s = line.slice(text);
        if in_comment {
            if s.contains("-->") {
                in_comment = false;
            }
            continue;
        }
        let t = s.trim();
        if t.is_empty() {
            continue;
        }
        if let Some(rest) = t.strip_prefix("<!--") {
            in_comment = !rest.contains("-->");
            continue;
        }
        if let Some(trailing) = delimiter(s) {
            open = Some((line, next, trailing));
        }
        break;
    }
    let Some((open_line, after_open, trailing)) = open else {
        return out;
    };
    if open_line.start > start {
        out.leading = Some(Span::new(start, open_line.start));
    }
    if let Some((a, b)) = trailing {
        out.delimiter_trailing.push(Span::new(open_line.start + a, open_line.start + b));
    }
    out.open = Some(open_line);

    for (line, next) in lines_from(text, after_open) {
        let s = line.slice(text);
        if let Some(trailing) = delimiter(s) {
            if let Some((a, b)) = trailing {
                out.delimiter_trailing.push(Span::new(line.start + a, line.start + b));
            }
            out.close = Some(line);
            out.close_newline = next > line.end;
            out.yaml = Some(Span::new(after_open, line.start));
            out.body = Span::new(next, text.len());
            break;
        }
        if out.glued_close.is_none() && s.starts_with("---") && !s.starts_with("----") {
            out.glued_close = Some(line);
        }
    }
    if out.close.is_none() {
        out.yaml = Some(Span::new(after_open, text.len()));
        out.body = Span::empty(text.len());
    } else {
        out.glued_close = None;
    }

    // skills-ref splits the file on the first two `---` substrings anywhere.
    let yaml = out.yaml.unwrap();
    let search_from = open_line.start + 3;
    if let Some(i) = text[search_from..].find("---") {
        let cut = search_from + i;
        if cut < yaml.end && out.close.is_some() {
            out.skills_ref_cut = Some(cut);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(text: &str) -> (Option<&str>, &str) {
        let s = split(text);
        (s.yaml.map(|y| y.slice(text)), s.body.slice(text))
    }

    #[test]
    fn plain_file_splits_into_yaml_and_body() {
        assert_eq!(parts("---\nname: a\n---\n# Body\n"), (Some("name: a\n"), "# Body\n"));
    }

    #[test]
    fn crlf_and_bom_are_handled() {
        let t = "\u{feff}---\r\nname: a\r\n---\r\nBody\r\n";
        let s = split(t);
        assert!(s.bom && s.crlf);
        assert_eq!(s.yaml.unwrap().slice(t), "name: a\r\n");
        assert_eq!(s.body.slice(t), "Body\r\n");
    }

    #[test]
    fn trailing_spaces_on_delimiters_are_recorded() {
        let t = "---  \nname: a\n--- \nBody";
        let s = split(t);
        assert_eq!(s.delimiter_trailing.len(), 2);
        assert_eq!(s.body.slice(t), "Body");
    }

    #[test]
    fn dashes_inside_a_value_do_not_close_but_mark_the_skills_ref_cut() {
        let t = "---\ndescription: A --- B\n---\nBody";
        let s = split(t);
        assert_eq!(s.yaml.unwrap().slice(t), "description: A --- B\n");
        assert_eq!(s.skills_ref_cut, Some(t.find("A ---").unwrap() + 2));
    }

    #[test]
    fn unclosed_frontmatter_takes_the_rest_and_notes_a_glued_line() {
        let t = "---\nname: a\n---# Body\ntext";
        let s = split(t);
        assert!(!s.is_closed());
        assert_eq!(s.glued_close.unwrap().slice(t), "---# Body");
        assert!(s.body.is_empty());
    }

    #[test]
    fn leading_blank_lines_and_comments_are_skipped_but_recorded() {
        let t = "\n<!-- note\nmore -->\n---\nname: a\n---\nB";
        let s = split(t);
        assert_eq!(s.leading.unwrap().slice(t), "\n<!-- note\nmore -->\n");
        assert_eq!(s.yaml.unwrap().slice(t), "name: a\n");
    }

    #[test]
    fn no_frontmatter_means_all_body() {
        let t = "# Title\n---\n";
        let s = split(t);
        assert!(!s.has_frontmatter());
        assert_eq!(s.body.slice(t), t);
        assert!(!split("----\nname: a\n---\n").has_frontmatter());
    }

    #[test]
    fn empty_frontmatter_and_closing_line_at_eof() {
        let t = "---\n---";
        let s = split(t);
        assert_eq!(s.yaml.unwrap().slice(t), "");
        assert!(!s.close_newline);
        assert_eq!(s.body.slice(t), "");
    }
}
