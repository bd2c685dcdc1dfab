use crate::lint::rules::Context;
use crate::syntax::text::Span;
use std::collections::HashSet;

declare_rule! {
    /// A file in the skill folder is never mentioned in the body.
    ///
    /// ## What it does
    /// Lists the skill's files that no reference in the body names, neither directly nor through
    /// their folder (a reference to `scripts/` covers every file in it). Paths written anywhere in
    /// the body count, code blocks included (`python3 scripts/run.py`). Files that explain the
    /// folder to people (`LICENSE*`, `LICENCE*`, `COPYING*`, `NOTICE*`, `README*`, `CHANGELOG*`
    /// at the root) and hidden files and folders are not reported. Only runs on skills read from
    /// disk.
    ///
    /// ## Why is this bad?
    /// Agents learn what a skill's files are for from `SKILL.md`: with the specification's
    /// progressive disclosure they are loaded only when required, when the instructions point
    /// to them. A file nothing points to is either dead weight shipped with every install or a
    /// script or document the agent never learns to use.
    ///
    /// ## Example
    /// ```text
    /// my-skill/
    /// ├── SKILL.md          Run `python3 scripts/extract.py <file.pdf>`.
    /// └── scripts/
    ///     ├── extract.py
    ///     └── merge.py
    /// ```
    ///
    /// ## Use instead
    /// ```text
    /// my-skill/
    /// ├── SKILL.md          Run `python3 scripts/extract.py <file.pdf>`; to combine the
    /// │                     results, run `python3 scripts/merge.py out/`.
    /// └── scripts/
    ///     ├── extract.py
    ///     └── merge.py
    /// ```
    ///
    /// ## Fix
    /// Say in the body when to use the file (a link or its path in inline code), or delete it.
    pub ResourceUnreferenced {
        code: "SK604",
        name: "resource-unreferenced",
        group: Body,
        severity: Info,
        fix: None,
        sources: ["spec: progressive disclosure, resources are loaded only when required"],
    }
}

/// Root files written for people browsing the folder, not for the agent.
const HUMAN_FILES: [&str; 6] = ["LICENSE", "LICENCE", "COPYING", "NOTICE", "README", "CHANGELOG"];

fn ignored(path: &str) -> bool {
    if path.split('/').any(|part| part.starts_with('.')) {
        return true;
    }
    !path.contains('/') && HUMAN_FILES.iter().any(|h| path.get(..h.len()).is_some_and(|p| p.eq_ignore_ascii_case(h)))
}

fn is_delim(c: char) -> bool {
    if c.is_ascii() {
        ASCII_DELIM[c as usize]
    } else {
        c.is_whitespace()
    }
}

/// [`is_delim`] of each ASCII character: its whitespace (as `char::is_whitespace`) and
/// ``` `()[]<>"'=,;|{} ```, looked up instead of searched for (it runs on every character of
/// every body).
const ASCII_DELIM: [bool; 128] = {
    let mut t = [false; 128];
    let delims = b"`()[]<>\"'=,;|{} \t\n\r\x0b\x0c";
    let mut i = 0;
    while i < delims.len() {
        t[delims[i] as usize] = true;
        i += 1;
    }
    t
};

/// Whether `needle` occurs in `body` as a whole path token: after a delimiter (or `./`), and
/// followed by a delimiter, the end, or sentence punctuation; a folder (`needle` ends in `/`) also
/// by a glob or variable (`scripts/*.py`, `scripts/$NAME`).
fn mentioned(body: &str, needle: &str) -> bool {
    let folder = needle.ends_with('/');
    // (`memmem`, several times faster than `str::match_indices`; its matches of an empty needle
    // include positions inside characters, which `match_indices` skips.)
    memchr::memmem::find_iter(body.as_bytes(), needle.as_bytes()).filter(|&i| body.is_char_boundary(i)).any(|i| {
        let before = body[..i].strip_suffix("./").unwrap_or(&body[..i]);
        let before_ok = before.chars().next_back().is_none_or(is_delim);
        let rest = body[i + needle.len()..].trim_start_matches(['.', ':', '!', '?']);
        let after_ok = if folder {
            body[i + needle.len()..].chars().next().is_none_or(|c| is_delim(c) || c == '*' || c == '$')
        } else {
            rest.chars().next().is_none_or(is_delim)
        };
        before_ok && after_ok
    })
}

/// The characters [`mentioned`] lets follow a file path before the delimiter.
const TRAILING: [char; 4] = ['.', ':', '!', '?'];

/// How many bytes of body the scans of [`mentioned`] may read in one check, for the paths
/// [`Mentions`] cannot answer from its index (those with spaces or other delimiters in them).
const SCAN_BUDGET: usize = 64 << 20;

/// The body's path tokens, read once, so that [`mentioned`] needs no scan of the body per file
/// (2,000 files against a 9 MB body took half a minute). A token is a run of characters that
/// are not delimiters; a path is mentioned when a token is the path, after an optional `./` and
/// before trailing `.`, `:`, `!` or `?` (a folder: up to a `/` that ends the token or comes
/// before `*` or `$`). That is [`mentioned`] for paths without delimiters, `./` or `/` at their
/// start, or those trailing characters at their end; the others are scanned for as before,
/// within [`SCAN_BUDGET`] (past it, they count as mentioned: this rule is a hint).
///
/// A skill with a few files asks a few questions: the first [`DIRECT`] simple ones are answered
/// by scanning the body (the same answer, as the index's test holds), and the index is built only
/// when more come.
struct Mentions<'a> {
    body: &'a str,
    index: std::cell::OnceCell<Index<'a>>,
    asked: std::cell::Cell<usize>,
    scanned: std::cell::Cell<usize>,
}

type Set<'a> = HashSet<&'a str, foldhash::fast::RandomState>;

struct Index<'a> {
    /// Each token, without its `./` and its trailing characters.
    paths: Set<'a>,
    /// Each folder a token names.
    folders: Set<'a>,
}

/// How many simple questions are answered by a scan before the index is built.
const DIRECT: usize = 12;

impl<'a> Index<'a> {
    fn new(body: &'a str) -> Self {
        let mut paths = Set::default();
        let mut folders = Set::default();
        for token in body.split(is_delim).filter(|t| !t.is_empty()) {
            let token = token.strip_prefix("./").unwrap_or(token);
            paths.insert(token.trim_end_matches(TRAILING));
            for (slash, _) in token.match_indices('/') {
                if matches!(token.as_bytes().get(slash + 1), None | Some(b'*' | b'$')) {
                    folders.insert(&token[..=slash]);
                }
            }
        }
        Index { paths, folders }
    }
}

impl<'a> Mentions<'a> {
    fn new(body: &'a str) -> Self {
        Mentions {
            body,
            index: std::cell::OnceCell::new(),
            asked: std::cell::Cell::new(0),
            scanned: std::cell::Cell::new(0),
        }
    }

    fn mentioned(&self, needle: &str) -> bool {
        let simple = !needle.is_empty()
            && !needle.contains(is_delim)
            && !needle.starts_with(['.', '/'])
            && !needle.ends_with(TRAILING);
        if simple {
            if self.index.get().is_none() && self.asked.get() < DIRECT {
                self.asked.set(self.asked.get() + 1);
                return mentioned(self.body, needle);
            }
            let index = self.index.get_or_init(|| Index::new(self.body));
            return match needle.strip_suffix('/') {
                Some(_) => index.folders.contains(needle),
                None => index.paths.contains(needle),
            };
        }
        if self.scanned.get() > SCAN_BUDGET {
            return true;
        }
        self.scanned.set(self.scanned.get() + self.body.len());
        mentioned(self.body, needle)
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    let skill = cx.skill;
    let Some(res) = skill.resources.as_ref() else { return };
    if !skill.is_readable() || res.files.is_empty() {
        return;
    }
    let mut named: HashSet<String, foldhash::fast::RandomState> = HashSet::default();
    for r in skill.references().iter() {
        if let Some(path) = r.path.as_ref().filter(|p| !r.escapes && !p.is_empty()) {
            named.insert(path.clone());
        }
    }
    let body = Mentions::new(skill.body());
    let anchor = skill.split.close.unwrap_or(Span::empty(skill.split.body.start));
    for file in &res.files {
        let path = file.path.as_str();
        if ignored(path) {
            continue;
        }
        // Named by a reference, or mentioned in the text (code blocks included); the file itself,
        // or any folder above it.
        let folders = || path.char_indices().filter(|&(_, c)| c == '/').map(|(i, _)| i);
        let covered = named.contains(path)
            || folders().any(|i| named.contains(&path[..i]))
            || body.mentioned(path)
            || folders().any(|i| body.mentioned(&path[..=i]) || body.mentioned(&path[..i]));
        if !covered {
            cx.report(
                anchor,
                format!("`{path}` is not referenced from {}: agents will not know when to use it", skill.file_name),
            )
            .help("say in the body when to use it (a link, or its path in inline code), or delete it");
        }
    }
}

#[cfg(test)]
mod tests {

    /// SK604 messages for a skill holding `files` with `body`.
    fn unreferenced(files: &[&str], body: &str) -> Vec<String> {
        let (text, d) = crate::testing::lint_on_disk(files, body, "SK604");
        for x in &d {
            assert_eq!(&text[x.span.start..x.span.end], "---");
            assert_eq!(x.start.line, 4);
        }
        d.into_iter().map(|d| d.message).collect()
    }

    #[test]
    fn files_nothing_mentions_are_listed_one_by_one() {
        let m = unreferenced(
            &["scripts/extract.py", "scripts/merge.py", "references/old.md", "notes.txt"],
            "Run `python3 scripts/extract.py <file.pdf>`.\n",
        );
        assert_eq!(m.len(), 3, "{m:#?}");
        assert!(m[0].starts_with("`notes.txt` is not referenced from SKILL.md"), "{m:#?}");
        assert!(m[1].contains("`references/old.md`") && m[2].contains("`scripts/merge.py`"), "{m:#?}");
    }

    #[test]
    fn links_folders_code_blocks_globs_and_prose_count_as_references() {
        let m = unreferenced(
            &[
                "references/a b.md",
                "assets/t/x.json",
                "scripts/run.sh",
                "scripts/lib/u.py",
                "data/one.csv",
                "data/two.csv",
                "top.md",
            ],
            "See [a](references/a%20b.md), the `assets/` folder and top.md.\n\n```bash\nsh scripts/run.sh\n```\n\
             Helpers live in scripts/lib. Inputs: `data/*.csv`\n",
        );
        assert!(m.is_empty(), "{m:#?}");
    }

    proptest::proptest! {
        /// The index answers as a scan of the body does.
        #[test]
        fn the_token_index_finds_what_the_scan_finds(
            body in "(a|b|/|\\.|!|:|\\*|\\$| |`|\\(|\\)|\\n){0,30}",
            needle in "(a|b|/|\\.|!|:| ){1,6}",
        ) {
            let index = super::Mentions::new(&body);
            // Past the questions answered by a scan: the index answers.
            index.asked.set(super::DIRECT);
            proptest::prop_assert_eq!(index.mentioned(&needle), super::mentioned(&body, &needle), "{:?} in {:?}", needle, body);
        }
    }

    #[test]
    fn the_delimiter_table_is_the_delimiter_set() {
        for c in (0..=0x3000u32).filter_map(char::from_u32) {
            assert_eq!(super::is_delim(c), c.is_whitespace() || "`()[]<>\"'=,;|{}".contains(c), "{c:?}");
        }
    }

    #[test]
    fn licences_readmes_and_hidden_files_are_not_reported() {
        let m =
            unreferenced(&["LICENSE.txt", "README.md", "changelog.md", ".github/x.yml", ".env", "NOTICE"], "Body.\n");
        assert!(m.is_empty(), "{m:#?}");
        let m = unreferenced(&["docs/README.md"], "Body.\n");
        assert_eq!(m.len(), 1);
    }
}
