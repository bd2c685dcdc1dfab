//! A skill file as the engine sees it: decoded text, the frontmatter/body split, the YAML tree,
//! the fields, and what was wrong with the file itself (too large, not UTF-8, binary, missing).
//! Building a `Skill` from text is pure; reading one from disk lives in `read`.

use crate::resources::Resources;
use crate::syntax::frontmatter::Frontmatter;
use crate::syntax::split::{split, Split};
use crate::syntax::text::{LineIndex, Span};
use crate::syntax::yaml::{self, Yaml};
use std::path::PathBuf;

pub use crate::scope::MAX_FILE_BYTES;

/// Something wrong with the file before any YAML is read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileProblem {
    /// The folder has no SKILL.md.
    Missing,
    /// `SKILL.md` exists but is a directory, FIFO, socket or device; never read.
    NotAFile { kind: &'static str },
    /// Could not be read (permissions, I/O error).
    Unreadable { error: String },
    /// Larger than [`MAX_FILE_BYTES`]; not read.
    TooLarge { size: u64 },
    /// Bytes that are not UTF-8, first at this offset (the text holds U+FFFD there).
    InvalidUtf8 { offset: usize, len: usize },
    /// A NUL byte at this offset: a binary file, not parsed.
    Binary { offset: usize },
}

#[derive(Clone, Debug)]
pub struct Skill {
    /// The skill's folder.
    pub dir: PathBuf,
    /// The folder's name, which `name` must equal.
    pub dir_name: String,
    /// `SKILL.md`, or `skill.md` when only the lowercase file exists.
    pub file_name: String,
    pub text: String,
    pub lines: LineIndex,
    pub split: Split,
    pub yaml: Yaml,
    pub frontmatter: Frontmatter,
    pub file_problems: Vec<FileProblem>,
    /// The skill folder's other files, when the skill was read from disk (`None` for text
    /// linted in memory, where rules that need the files stay silent).
    pub resources: Option<Resources>,
    /// The body's file references, parsed once on first use (several rules need them).
    references: std::sync::OnceLock<Vec<crate::syntax::markdown::target::Reference>>,
}

impl Skill {
    /// Parse a SKILL.md text found in folder `dir`.
    pub fn parse(dir: impl Into<PathBuf>, file_name: &str, text: String) -> Skill {
        Self::build(dir.into(), file_name, text, vec![], true)
    }

    /// Decode and parse raw file bytes, reporting bad UTF-8 and binary content.
    pub fn from_bytes(dir: impl Into<PathBuf>, file_name: &str, bytes: Vec<u8>) -> Skill {
        let mut problems = vec![];
        if let Some(offset) = memchr::memchr(0, &bytes) {
            problems.push(FileProblem::Binary { offset });
            let text = String::from_utf8_lossy(&bytes).into_owned();
            return Self::build(dir.into(), file_name, text, problems, false);
        }
        let text = match String::from_utf8(bytes) {
            Ok(t) => t,
            Err(e) => {
                let err = e.utf8_error();
                let len = err.error_len().unwrap_or(e.as_bytes().len() - err.valid_up_to());
                problems.push(FileProblem::InvalidUtf8 { offset: err.valid_up_to(), len });
                String::from_utf8_lossy(e.as_bytes()).into_owned()
            }
        };
        Self::build(dir.into(), file_name, text, problems, true)
    }

    /// A skill whose file could not be read at all.
    pub fn unreadable(dir: impl Into<PathBuf>, file_name: &str, problem: FileProblem) -> Skill {
        Self::build(dir.into(), file_name, String::new(), vec![problem], false)
    }

    fn build(dir: PathBuf, file_name: &str, text: String, file_problems: Vec<FileProblem>, parse: bool) -> Skill {
        let dir_name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let lines = LineIndex::new(&text);
        let (sp, yaml) = if parse {
            let sp = split(&text);
            let yaml = match sp.yaml {
                Some(y) => yaml::parse(y.slice(&text), y.start),
                None => Yaml::default(),
            };
            (sp, yaml)
        } else {
            (Split { body: Span::empty(text.len()), ..Default::default() }, Yaml::default())
        };
        let frontmatter = Frontmatter::from_yaml(&text, &sp, &yaml);
        Skill {
            dir,
            dir_name,
            file_name: file_name.to_string(),
            text,
            lines,
            split: sp,
            yaml,
            frontmatter,
            file_problems,
            resources: None,
            references: std::sync::OnceLock::new(),
        }
    }

    /// The file references in the body (links, images, paths in inline code), parsed once.
    pub fn references(&self) -> &[crate::syntax::markdown::target::Reference] {
        self.references.get_or_init(|| crate::syntax::markdown::references::references(&self.text, self.split.body))
    }

    /// Drop what only linting needs (the YAML tree, the file list), keeping the text, lines,
    /// split and the `name` and `description` fields (what the library-level rules read), so a large library's results stay small in memory.
    pub fn shrink(&mut self) {
        self.yaml = Yaml::default();
        self.resources = None;
        self.references = std::sync::OnceLock::new();
        self.frontmatter.fields.retain(|f| f.key == "name" || f.key == "description");
        for f in &mut self.frontmatter.fields {
            if !matches!(f.value.kind, crate::syntax::yaml::NodeKind::Scalar { .. }) {
                f.value.kind = crate::syntax::yaml::NodeKind::Alias;
            }
        }
        self.text.shrink_to_fit();
    }

    /// Drop the text after byte `reach` (the furthest a report's findings point:
    /// [`crate::lint::diagnostic::reach`]), keeping at least the frontmatter, where the
    /// library-wide findings point (duplicates, shadowing, nesting), and the rest of `reach`'s
    /// line. Spans and positions up to there stay valid. After [`Skill::shrink`], a one-shot
    /// check keeps nothing of a clean body, so its memory follows its findings, not the
    /// library's bytes.
    pub fn keep_through(&mut self, reach: usize) {
        let fm_end = self.split.close.map_or(0, |c| c.end).max(self.split.yaml.map_or(0, |y| y.end));
        let reach = reach.max(fm_end);
        if reach >= self.text.len() {
            return;
        }
        // To the end of that line, so a snippet shows it whole.
        let end = memchr::memchr(b'\n', &self.text.as_bytes()[reach..]).map_or(self.text.len(), |i| reach + i + 1);
        if end >= self.text.len() {
            return;
        }
        self.text.truncate(end);
        self.text.shrink_to_fit();
        // The body is what is left of it (a prefix, or nothing).
        self.split.body = Span { start: self.split.body.start.min(end), end };
        self.lines = LineIndex::new(&self.text);
        self.references = std::sync::OnceLock::new();
    }

    pub fn path(&self) -> PathBuf {
        self.dir.join(&self.file_name)
    }

    /// The engine's parse of the frontmatter, when `src` (an agent's own cut of the frontmatter)
    /// is the same YAML text, give or take the line break before the closing line: loaders that
    /// cut the frontmatter their own way can skip parsing it again. Spans in it are the file's.
    pub fn yaml_for(&self, src: &str) -> Option<&Yaml> {
        let span = self.split.yaml?;
        let t = span.slice(&self.text);
        let same = t == src || t.strip_suffix('\n').is_some_and(|t| t == src || t.strip_suffix('\r') == Some(src));
        same.then_some(&self.yaml)
    }

    pub fn body(&self) -> &str {
        self.split.body.slice(&self.text)
    }

    /// Whether the file was read and parsed (no blocking file problem).
    pub fn is_readable(&self) -> bool {
        !self.file_problems.iter().any(|p| {
            matches!(
                p,
                FileProblem::Missing
                    | FileProblem::NotAFile { .. }
                    | FileProblem::Unreadable { .. }
                    | FileProblem::TooLarge { .. }
                    | FileProblem::Binary { .. }
            )
        })
    }

    /// The skill's name as loaders list it: the `name` field, else the folder name.
    pub fn display_name(&self) -> &str {
        self.frontmatter.str("name").map(str::trim).filter(|n| !n.is_empty()).unwrap_or(&self.dir_name)
    }
}
