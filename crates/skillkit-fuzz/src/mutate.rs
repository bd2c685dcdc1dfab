//! Mutations: new inputs made from a corpus input with a seeded [`Rng`]. Byte-level changes (bit
//! flips, byte inserts and deletes), splices with other corpus inputs, insertion of the tokens
//! that matter to YAML, Markdown, HTML and session scripts ([`TOKENS`]), and growth (repeated
//! chunks, numbered copies of a line, deep nesting) to find inputs that are slow for their size.

use crate::rng::Rng;

/// Tokens of the languages a skill file mixes, and characters that have broken text handling
/// before (BOM, line and paragraph separators, NEL, combining marks, astral characters).
pub const TOKENS: &[&str] = &[
    // YAML
    "---",
    "--- ",
    "...",
    ": ",
    ":",
    "- ",
    "? ",
    "|",
    "|-",
    "|+",
    ">",
    ">-",
    "|2",
    "&a ",
    "*a",
    "<<: *a",
    "!!str ",
    "!!binary ",
    "!local ",
    "%YAML 1.2\n",
    "#",
    " # c",
    "'",
    "\"",
    "\\",
    "\\u00e9",
    "{",
    "}",
    "[",
    "]",
    ", ",
    "  ",
    "\t",
    "~",
    "null",
    "yes",
    "0x1F",
    "1e9",
    "name: ",
    "description: ",
    "metadata:\n  ",
    "allowed-tools: ",
    "license: ",
    "compatibility: ",
    // Markdown
    "# ",
    "## ",
    "> ",
    "* ",
    "1. ",
    "```",
    "~~~",
    "    ",
    "](",
    "[x](",
    "![i](assets/d.png)",
    "![o](assets/link.png)",
    "[r](references/guide.md)",
    "[u](../",
    "`scripts/run.py`",
    "| a | b |\n|---|---|\n",
    "- [ ] ",
    "<!--",
    "-->",
    "[^1]",
    "***",
    // HTML
    "<script>",
    "</script>",
    "<img src=x onerror=alert(1)>",
    "<a href=\"javascript:alert(1)\">",
    "javascript:",
    "data:text/html,",
    "&#106;",
    "<iframe>",
    "<style>",
    "<svg onload=x>",
    "<form>",
    "<base href=x>",
    "<meta ",
    "<div>",
    "</div>",
    "<",
    ">",
    "&amp;",
    "&a",
    // Session scripts
    "agent: ",
    "sources: [",
    "steps:\n",
    "  - load: ",
    "  - unload: ",
    "  - invoke: ",
    "    args: ",
    "  - slash: /",
    "  - tool: read_file\n    args: {file_path: ",
    "  - tool: Bash\n    args: {command: ",
    "  - edit: ",
    "    content: |\n      ",
    "policy: restrict\n",
    "context_window: ",
    "max_loaded_skills: ",
    "char_budget: ",
    "allow: [",
    "Bash(git:*)",
    "Skill(",
    "$ARGUMENTS",
    "$1",
    "${CLAUDE_SESSION_ID}",
    "${CLAUDE_SKILL_DIR}",
    "!`",
    "claude-code",
    "deepagents-v2",
    "deepagents",
    "codex",
    "gemini-cli",
    "harness9",
    "#== library/new/SKILL.md\n",
    "-1",
    "99999999999999999999",
    // Characters
    "\r\n",
    "\r",
    "\n",
    "\n\n",
    "\u{feff}",
    "\u{2028}",
    "\u{2029}",
    "\u{85}",
    "\u{a0}",
    "\u{200b}",
    "\u{301}",
    "é",
    "😀",
    "技能",
    "\u{0}",
    "\u{7f}",
];

/// Tokens that nest when repeated: lists, quotes, indentation, flow collections, HTML.
const NESTERS: &[&str] = &["> ", "- ", "* ", "1. ", "  ", "[", "{", "<div>", "- [", "> - ", "\t"];

/// Makes a new input from `parent`: one to eight stacked mutations, splicing from `corpus`, at
/// most `max_len` bytes.
pub fn mutate(rng: &mut Rng, parent: &[u8], corpus: &[Vec<u8>], max_len: usize) -> Vec<u8> {
    let mut data = parent.to_vec();
    let rounds = 1 + if rng.one_in(4) { rng.below(8) } else { rng.below(3) };
    for _ in 0..rounds {
        mutate_once(rng, &mut data, corpus, max_len);
    }
    data.truncate(max_len);
    data
}

/// A position to change: anywhere, or (half the time) at the start of a line.
fn position(rng: &mut Rng, data: &[u8]) -> usize {
    let at = rng.below(data.len() + 1);
    if rng.one_in(2) {
        data[..at].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1)
    } else {
        at
    }
}

/// A line of `data` as a byte range (with its line break), if there is one.
fn line(rng: &mut Rng, data: &[u8]) -> Option<(usize, usize)> {
    if data.is_empty() {
        return None;
    }
    let at = rng.below(data.len());
    let start = data[..at].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let end = data[at..].iter().position(|&b| b == b'\n').map_or(data.len(), |i| at + i + 1);
    Some((start, end))
}

fn mutate_once(rng: &mut Rng, data: &mut Vec<u8>, corpus: &[Vec<u8>], max_len: usize) {
    let room = max_len.saturating_sub(data.len());
    match rng.below(14) {
        // Flip a bit.
        0 if !data.is_empty() => {
            let i = rng.below(data.len());
            data[i] ^= 1 << rng.below(8);
        }
        // Set a byte to a random or a meaningful value.
        1 if !data.is_empty() => {
            let i = rng.below(data.len());
            data[i] = if rng.one_in(2) {
                rng.next_u64() as u8
            } else {
                *rng.pick(b"\0\n\r\t :-#'\"|>&*!{}[]<\x80\xc3\xe2\xef\xff")
            };
        }
        // Insert random bytes.
        2 => {
            let at = rng.below(data.len() + 1);
            let n = 1 + rng.below(4);
            let bytes: Vec<u8> = (0..n).map(|_| rng.next_u64() as u8).collect();
            data.splice(at..at, bytes);
        }
        // Delete a range.
        3 if !data.is_empty() => {
            let at = rng.below(data.len());
            let most = if rng.one_in(8) { 256 } else { 16 };
            let n = 1 + rng.below(most);
            data.drain(at..(at + n).min(data.len()));
        }
        // Insert a token (most often).
        4..=6 => {
            let at = position(rng, data);
            let token = rng.pick(TOKENS).as_bytes().to_vec();
            data.splice(at..at, token);
        }
        // Replace a short range with a token.
        7 if !data.is_empty() => {
            let at = rng.below(data.len());
            let end = (at + 1 + rng.below(8)).min(data.len());
            data.splice(at..end, rng.pick(TOKENS).as_bytes().iter().copied());
        }
        // Insert a slice of another input.
        8 if !corpus.is_empty() => {
            let other = rng.pick(corpus);
            if !other.is_empty() {
                let from = rng.below(other.len());
                let to = (from + 1 + rng.below(256)).min(other.len());
                let at = position(rng, data);
                data.splice(at..at, other[from..to].iter().copied());
            }
        }
        // Cross over: this input's start, another's end.
        9 if !corpus.is_empty() => {
            let other = rng.pick(corpus);
            let cut = rng.below(data.len() + 1);
            let from = rng.below(other.len() + 1);
            data.truncate(cut);
            data.extend_from_slice(&other[from..]);
        }
        // Repeat a chunk, a few times or (rarely) until the input is large.
        10 if !data.is_empty() && room > 0 => {
            let at = rng.below(data.len());
            let chunk = data[at..(at + 1 + rng.below(64)).min(data.len())].to_vec();
            let times = if rng.one_in(8) { room / chunk.len() } else { 1 + rng.below(8) };
            let times = times.min(room / chunk.len());
            let grown: Vec<u8> = chunk.iter().copied().cycle().take(chunk.len() * times).collect();
            data.splice(at..at, grown);
        }
        // Copy a line many times with a number in it (distinct keys, distinct list items).
        11 => {
            if let Some((start, end)) = line(rng, data) {
                let text = data[start..end].to_vec();
                let most = if rng.one_in(4) { 2000 } else { 20 };
                let n = 1 + rng.below(most);
                let mut grown = vec![];
                for i in 0..n {
                    if grown.len() + text.len() + 8 > room {
                        break;
                    }
                    let split = text.iter().position(|&b| b == b':' || b == b' ').unwrap_or(text.len().min(1));
                    grown.extend_from_slice(&text[..split]);
                    grown.extend_from_slice(i.to_string().as_bytes());
                    grown.extend_from_slice(&text[split..]);
                    if !grown.ends_with(b"\n") {
                        grown.push(b'\n');
                    }
                }
                data.splice(end..end, grown);
            }
        }
        // Nest: a nesting token repeated at a line start.
        12 => {
            let at = position(rng, data);
            let token = rng.pick(NESTERS).as_bytes();
            let most = if rng.one_in(6) { 3000 } else { 12 };
            let depth = (1 + rng.below(most)).min(room / token.len());
            let nested: Vec<u8> = token.iter().copied().cycle().take(token.len() * depth).collect();
            data.splice(at..at, nested);
        }
        // Swap two lines.
        _ => {
            if let (Some(a), Some(b)) = (line(rng, data), line(rng, data)) {
                let (first, second) = if a.0 <= b.0 { (a, b) } else { (b, a) };
                if first.1 <= second.0 {
                    let mut out = data[..first.0].to_vec();
                    out.extend_from_slice(&data[second.0..second.1]);
                    out.extend_from_slice(&data[first.1..second.0]);
                    out.extend_from_slice(&data[first.0..first.1]);
                    out.extend_from_slice(&data[second.1..]);
                    *data = out;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutations_are_deterministic_for_a_seed_and_stay_under_the_size_cap() {
        let corpus = vec![b"---\nname: a\ndescription: b\n---\nbody\n".to_vec(), b"agent: codex\n".to_vec()];
        let run = |seed| {
            let mut rng = Rng::new(seed);
            (0..500).map(|i| mutate(&mut rng, &corpus[i % 2], &corpus, 4096)).collect::<Vec<_>>()
        };
        let a = run(3);
        assert_eq!(a, run(3));
        assert!(a.iter().all(|m| m.len() <= 4096));
        assert!(a.iter().any(|m| m.len() > 1024), "some mutations grow the input");
        assert!(a.iter().filter(|m| **m != corpus[0] && **m != corpus[1]).count() > 400);
    }
}
