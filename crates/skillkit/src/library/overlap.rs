//! Skills whose descriptions compete for the same queries (`competing-descriptions`, SK705): a
//! static measure that needs no model. Each description is cut to its trigger clause (from the
//! first "use when…", "when the user…" and the like to its end; the whole description when it has
//! none or the clause is too short), split into words, stop words dropped, each word stemmed; a
//! description is then a TF-IDF vector (`1 + ln tf` times BM25's smoothed IDF,
//! `ln(1 + (N - df + 0.5) / (df + 0.5))`, N the skills with a description plus ten,
//! [`BACKGROUND`]), and two skills compete when the cosine of their vectors reaches
//! [`THRESHOLD`]. The rule is off unless a profile sets its level ([`enabled`]).
//!
//! The library is read in path order ([`Overlaps::add`]), as a check reads it as a stream: each
//! pair is scored when its later skill comes, with the IDF of the skills read so far (that one
//! included), so a stream, a library read whole and an editor agree on every pair. The skills
//! are held in an inverted index (term → the skills that use it), so a skill is compared only
//! with the skills that share a word with it: the work follows the shared words, not the
//! square of the library.

use std::collections::HashMap;

/// The cosine at or above which two descriptions compete. Chosen on the corpus of 1,168
/// published skills (`bench/overlap.sh`): see the rule's page, `docs/rules/competing-descriptions.md`.
pub const THRESHOLD: f32 = 0.5;

/// The most earlier skills one description is scored against in full (those with the largest
/// dot products with it): a bound on the work in a library of templated look-alikes.
const MAX_SCORED: usize = 1_000;

/// Skills without a shared word assumed beside the library in the IDF's N: in a library of two
/// or three, a word both use is not thereby common (two PDF skills alone still compete), and
/// in a large library it changes next to nothing.
const BACKGROUND: usize = 10;

/// How many shared words a finding names.
const SHOWN: usize = 4;

/// A trigger clause shorter than this many words is not enough to go on: the whole description
/// is used instead.
const MIN_CLAUSE_TERMS: usize = 3;

/// Where a description's trigger clause starts, lowercase: the first of these in the text.
const MARKERS: &[&str] = &[
    "use when",
    "use this when",
    "use this skill when",
    "use it when",
    "use whenever",
    "use this whenever",
    "use this skill whenever",
    "use for ",
    "use this for",
    "use this skill for",
    "use proactively",
    "when the user",
    "when a user",
    "when user",
    "when users",
    "when you",
    "when working",
    "when asked",
    "triggers on",
    "triggers when",
    "trigger when",
    "trigger on",
    "invoke when",
    "activate when",
    "applies when",
];

/// Words that say nothing about what a skill is for: English function words, and the words every
/// description uses to say when it applies.
const STOP: &[&str] = &[
    "a",
    "about",
    "above",
    "after",
    "again",
    "all",
    "also",
    "am",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "be",
    "because",
    "been",
    "before",
    "being",
    "below",
    "between",
    "both",
    "but",
    "by",
    "can",
    "could",
    "did",
    "do",
    "does",
    "doing",
    "down",
    "during",
    "each",
    "eg",
    "etc",
    "few",
    "for",
    "from",
    "further",
    "had",
    "has",
    "have",
    "having",
    "he",
    "her",
    "here",
    "hers",
    "him",
    "his",
    "how",
    "i",
    "ie",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "itself",
    "just",
    "me",
    "more",
    "most",
    "my",
    "no",
    "nor",
    "not",
    "now",
    "of",
    "off",
    "on",
    "once",
    "only",
    "or",
    "other",
    "our",
    "ours",
    "out",
    "over",
    "own",
    "same",
    "she",
    "should",
    "so",
    "some",
    "such",
    "than",
    "that",
    "the",
    "their",
    "theirs",
    "them",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "to",
    "too",
    "under",
    "until",
    "up",
    "very",
    "via",
    "was",
    "we",
    "were",
    "what",
    "when",
    "whenever",
    "where",
    "which",
    "while",
    "who",
    "whom",
    "why",
    "will",
    "with",
    "would",
    "you",
    "your",
    "yours",
    "yourself",
    // How descriptions say when they apply.
    "use",
    "used",
    "uses",
    "using",
    "user",
    "users",
    "ask",
    "asks",
    "asked",
    "asking",
    "want",
    "wants",
    "wanting",
    "need",
    "needs",
    "needed",
    "needing",
    "skill",
    "skills",
    "trigger",
    "triggers",
    "triggered",
    "invoke",
    "invoked",
    "activate",
    "apply",
    "applies",
    "mention",
    "mentions",
    "mentioned",
    "request",
    "requests",
    "requested",
    "like",
    "including",
    "include",
    "includes",
    "especially",
    "e",
    "g",
    "proactively",
    "whether",
    "task",
    "tasks",
    "help",
    "helps",
    "want",
    "something",
    "anything",
    "etc",
    "must",
    "may",
    "might",
    "any",
    "new",
    "existing",
    "specific",
    "various",
    "different",
    "way",
    "ways",
    "make",
    "makes",
];

/// One description's words, stemmed, with their counts; `None` when it has none.
fn terms(text: &str) -> Vec<(String, String)> {
    let mut out = vec![];
    for word in text.split(|c: char| !c.is_alphanumeric()) {
        if word.len() < 2 || word.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        let lower = word.to_lowercase();
        if STOP.contains(&lower.as_str()) {
            continue;
        }
        out.push((stem(&lower), lower));
    }
    out
}

/// A light suffix stripper (plurals, `-ing`, `-ed`, a final `e`): enough for `pdfs` and `pdf`,
/// `reviewing` and `review`, `created` and `create` to meet.
pub fn stem(word: &str) -> String {
    let mut w = word.to_string();
    if !w.is_ascii() || w.len() <= 3 {
        return w;
    }
    if let Some(s) = w.strip_suffix("ies").filter(|s| s.len() >= 2) {
        w = format!("{s}y");
    } else if w.ends_with("sses") {
        w.truncate(w.len() - 2);
    } else if w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") && !w.ends_with("is") {
        w.pop();
    }
    for suffix in ["ing", "ed"] {
        if let Some(s) = w.strip_suffix(suffix).filter(|s| s.len() >= 3 && s.bytes().any(is_vowel)) {
            w = s.to_string();
            // `running` → `run`, `mapped` → `map`.
            let b = w.as_bytes();
            if b.len() >= 2 && b[b.len() - 1] == b[b.len() - 2] && !matches!(b[b.len() - 1], b'l' | b's' | b'z') {
                w.pop();
            }
            break;
        }
    }
    if w.len() > 3 && w.ends_with('e') {
        w.pop();
    }
    w
}

fn is_vowel(b: u8) -> bool {
    matches!(b, b'a' | b'e' | b'i' | b'o' | b'u' | b'y')
}

/// The part of `description` that says when the skill applies, as a byte range: from the first
/// trigger marker to the end; the whole description when there is no marker or the clause has
/// fewer than [`MIN_CLAUSE_TERMS`] words.
pub fn trigger_clause(description: &str) -> std::ops::Range<usize> {
    let lower = description.to_ascii_lowercase();
    let at = MARKERS
        .iter()
        .filter_map(|m| {
            lower.match_indices(m).find(|(i, _)| *i == 0 || !lower.as_bytes()[i - 1].is_ascii_alphanumeric())
        })
        .map(|(i, _)| i)
        .min();
    match at {
        Some(i) if terms(&description[i..]).len() >= MIN_CLAUSE_TERMS => i..description.len(),
        _ => 0..description.len(),
    }
}

/// Two skills whose descriptions compete: indexes in the order they were added.
#[derive(Clone, Debug, PartialEq)]
pub struct Competing {
    pub earlier: usize,
    pub later: usize,
    /// The cosine of their trigger clauses' vectors, 0 to 1.
    pub score: f32,
    /// The words they share, heaviest first (as the earlier skill first wrote them), at most four.
    pub shared: Vec<String>,
}

/// A library's descriptions, added in path order, and the pairs among them that compete.
pub struct Overlaps {
    threshold: f32,
    /// Stem → term id.
    ids: HashMap<String, u32, foldhash::fast::RandomState>,
    /// Each term's word as first written.
    words: Vec<String>,
    /// Each term's postings: (document, its `1 + ln tf`).
    postings: Vec<Vec<(u32, f32)>>,
    /// Each document's terms, sorted by id, with `1 + ln tf`.
    docs: Vec<Box<[(u32, f32)]>>,
    /// Documents with at least one term (the IDF's N).
    counted: usize,
    /// Scratch: each earlier document's dot product with the one being added.
    acc: Vec<f32>,
    touched: Vec<u32>,
    /// Each term's IDF while one document is added (`idf_at` says for which `counted`).
    idf_cache: std::cell::RefCell<(Vec<f32>, Vec<usize>)>,
}

impl Default for Overlaps {
    fn default() -> Self {
        Overlaps::new(THRESHOLD)
    }
}

impl Overlaps {
    pub fn new(threshold: f32) -> Self {
        Overlaps {
            threshold,
            ids: HashMap::default(),
            words: vec![],
            postings: vec![],
            docs: vec![],
            counted: 0,
            acc: vec![],
            touched: vec![],
            idf_cache: Default::default(),
        }
    }

    /// How many documents were added.
    pub fn len(&self) -> usize {
        self.docs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }

    fn idf(&self, term: u32) -> f32 {
        let mut cache = self.idf_cache.borrow_mut();
        let (values, at) = &mut *cache;
        let t = term as usize;
        if values.len() <= t {
            values.resize(self.postings.len(), 0.0);
            at.resize(self.postings.len(), usize::MAX);
        }
        if at[t] != self.counted {
            let n = (self.counted + BACKGROUND) as f32;
            let df = self.postings[t].len() as f32;
            values[t] = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
            at[t] = self.counted;
        }
        values[t]
    }

    fn norm(&self, doc: &[(u32, f32)]) -> f32 {
        doc.iter().map(|&(t, tf)| (tf * self.idf(t)).powi(2)).sum::<f32>().sqrt()
    }

    /// Adds the next skill's description (`None`: it has none) and returns the earlier skills its
    /// description competes with, each with its score and shared words, in the order they were
    /// added. Its index is [`Overlaps::len`] before the call.
    pub fn add(&mut self, description: Option<&str>) -> Vec<(usize, f32, Vec<String>)> {
        let me = self.docs.len() as u32;
        let Some(description) = description else {
            self.docs.push(Box::new([]));
            return vec![];
        };
        let clause = &description[trigger_clause(description)];
        let mut counts: HashMap<u32, u32, foldhash::fast::RandomState> = HashMap::default();
        for (stem, word) in terms(clause) {
            let next = self.ids.len() as u32;
            let id = *self.ids.entry(stem).or_insert(next);
            if id == next {
                self.words.push(word);
                self.postings.push(vec![]);
            }
            *counts.entry(id).or_default() += 1;
        }
        let mut doc: Vec<(u32, f32)> = counts.into_iter().map(|(t, c)| (t, 1.0 + (c as f32).ln())).collect();
        doc.sort_unstable_by_key(|&(t, _)| t);
        if doc.is_empty() {
            self.docs.push(Box::new([]));
            return vec![];
        }
        self.counted += 1;
        for &(t, tf) in &doc {
            self.postings[t as usize].push((me, tf));
        }
        self.acc.resize(self.docs.len(), 0.0);
        // The dot product with every earlier document that shares a term.
        for &(t, tf) in &doc {
            let idf = self.idf(t);
            let w = tf * idf * idf;
            for &(d, tf_d) in &self.postings[t as usize] {
                if d == me {
                    continue;
                }
                let a = &mut self.acc[d as usize];
                if *a == 0.0 {
                    self.touched.push(d);
                }
                *a += w * tf_d;
            }
        }
        let norm = self.norm(&doc);
        let mut found = vec![];
        let mut touched = std::mem::take(&mut self.touched);
        // In a library of templated look-alikes every skill shares words with most others: only
        // the [`MAX_SCORED`] with the largest dot products are scored in full.
        if touched.len() > MAX_SCORED {
            let acc = &self.acc;
            touched.select_nth_unstable_by(MAX_SCORED, |a, b| acc[*b as usize].total_cmp(&acc[*a as usize]));
            for &d in &touched[MAX_SCORED..] {
                self.acc[d as usize] = 0.0;
            }
            touched.truncate(MAX_SCORED);
        }
        for &d in &touched {
            let dot = std::mem::take(&mut self.acc[d as usize]);
            let other = &self.docs[d as usize];
            let score = dot / (norm * self.norm(other));
            if score >= self.threshold {
                found.push((d as usize, score.min(1.0), self.shared(other, &doc)));
            }
        }
        self.touched = touched;
        self.touched.clear();
        self.docs.push(doc.into_boxed_slice());
        found.sort_by_key(|f| f.0);
        found
    }

    /// The words `a` and `b` share, heaviest first, at most [`SHOWN`].
    fn shared(&self, a: &[(u32, f32)], b: &[(u32, f32)]) -> Vec<String> {
        let mut both: Vec<(f32, u32)> = vec![];
        let (mut i, mut j) = (0, 0);
        while i < a.len() && j < b.len() {
            match a[i].0.cmp(&b[j].0) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    let idf = self.idf(a[i].0);
                    both.push((a[i].1 * b[j].1 * idf * idf, a[i].0));
                    i += 1;
                    j += 1;
                }
            }
        }
        both.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
        both.into_iter().take(SHOWN).map(|(_, t)| self.words[t as usize].clone()).collect()
    }
}

/// Every competing pair of `descriptions` (in path order; `None` for a skill without one).
pub fn competing(descriptions: &[Option<&str>], threshold: f32) -> Vec<Competing> {
    let mut o = Overlaps::new(threshold);
    let mut out = vec![];
    for (later, d) in descriptions.iter().enumerate() {
        for (earlier, score, shared) in o.add(*d) {
            out.push(Competing { earlier, later, score, shared });
        }
    }
    out
}

use crate::lint::diagnostic::Diagnostic;
use crate::lint::rules::library::competing_descriptions::CompetingDescriptions;
use crate::skill::Skill;

/// The rule these findings are.
pub const RULE: &crate::lint::rules::RuleMeta = &CompetingDescriptions::META;

/// Whether `profile` asks for the rule: it is off unless a level is set for it (a profile's, or
/// the project's `[rules] competing-descriptions = "note"`, which `check` reads), since a
/// library of templated look-alikes (the synthetic benchmark library) would get a note on nearly
/// every skill.
pub fn enabled(profile: &crate::lint::profile::LintProfile) -> bool {
    matches!(profile.level(RULE.name), crate::lint::profile::Level::Set(_))
}

/// The description `Overlaps` reads of `skill`: its `description` value, when it has one.
pub(crate) fn description(skill: &Skill) -> Option<&str> {
    skill.frontmatter.str("description").filter(|d| !d.trim().is_empty())
}

/// The most competitors one skill is reported with, the strongest: a family of templated
/// look-alikes would otherwise give each of its skills a note per sibling.
pub const MAX_REPORTED: usize = 3;

/// Of the earlier skills `found` competes with (from [`Overlaps::add`]), those `keep` lets
/// through, the [`MAX_REPORTED`] strongest first (ties by order), and how many more there were.
pub(crate) fn strongest(
    mut found: Vec<(usize, f32, Vec<String>)>,
    keep: impl Fn(usize) -> bool,
) -> (Vec<(usize, f32, Vec<String>)>, usize) {
    found.retain(|f| keep(f.0));
    found.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let more = found.len().saturating_sub(MAX_REPORTED);
    found.truncate(MAX_REPORTED);
    (found, more)
}

/// Adds to `diagnostics` of `skill` that its description competes with `other`'s (a skill
/// file), at `score`, sharing `shared`, and with `more` other skills, weaker (kept in order of
/// position).
pub(crate) fn add_competing(
    skill: &Skill,
    other: &std::path::Path,
    score: f32,
    shared: &[String],
    more: usize,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let Some(field) = skill.frontmatter.get("description") else { return };
    let words = shared.iter().map(|w| format!("`{w}`")).collect::<Vec<_>>().join(", ");
    let more = match more {
        0 => String::new(),
        1 => "; 1 more skill competes with it, less closely".to_string(),
        n => format!("; {n} more skills compete with it, less closely"),
    };
    diagnostics.push(RULE.diagnostic(
        skill,
        RULE.severity,
        field.value.span,
        format!(
            "this description competes with `{}`'s for the same queries (similarity {score:.2}; shared words: {words}){more}",
            other.display()
        ),
        "an agent picks one skill per query: say what sets each apart (its input, its platform, what it does not do), \
         or merge the two; `skillkit eval` shows which one takes the other's queries",
    ));
    diagnostics.sort_by(|x, y| (x.span.start, x.severity, x.code).cmp(&(y.span.start, y.severity, y.code)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_meet() {
        for (a, b) in [("pdfs", "pdf"), ("reviewing", "review"), ("created", "create"), ("queries", "query")] {
            assert_eq!(stem(a), stem(b), "{a} {b}");
        }
        assert_ne!(stem("process"), stem("proces"));
        assert_eq!(stem("running"), "run");
    }

    #[test]
    fn the_trigger_clause_is_cut_at_its_marker_unless_too_short() {
        let d = "Extracts tables from invoices. Use when the user has scanned PDF invoices to read.";
        assert_eq!(&d[trigger_clause(d)], "Use when the user has scanned PDF invoices to read.");
        let short = "Extracts tables from invoices and receipts. Use when asked.";
        assert_eq!(trigger_clause(short), 0..short.len());
        let none = "Formats SQL queries.";
        assert_eq!(trigger_clause(none), 0..none.len());
        // A marker inside a word is none.
        let inside = "Reuse whenever possible the cached PDF pages of invoices.";
        assert_eq!(trigger_clause(inside), 0..inside.len());
    }

    #[test]
    fn two_pdf_skills_compete_and_a_shared_generic_word_does_not() {
        let d = [
            Some("Fills PDF forms. Use when the user wants to fill in a PDF form or read its form fields."),
            Some("Reviews Python code for style. Use when reviewing Python code before a merge."),
            Some("Edits PDF files. Use when the user asks to fill PDF form fields or merge PDF pages."),
            Some("Writes release notes. Use when preparing a changelog from merged pull requests and code."),
            None,
            Some("Plans database migrations. Use when changing a table schema in production databases."),
        ];
        let pairs = competing(&d, THRESHOLD);
        assert_eq!(pairs.iter().map(|p| (p.earlier, p.later)).collect::<Vec<_>>(), vec![(0, 2)], "{pairs:#?}");
        assert!(pairs[0].shared.contains(&"pdf".to_string()) && pairs[0].shared.contains(&"form".to_string()));
        assert!(pairs[0].score >= THRESHOLD && pairs[0].score <= 1.0);
    }

    #[test]
    fn identical_descriptions_score_one_and_order_is_by_the_earlier() {
        let same = "Converts Markdown tables to CSV. Use when exporting Markdown tables to spreadsheets.";
        let other = "Sends Slack messages. Use when posting a summary to a Slack channel for the team.";
        let pairs = competing(&[Some(same), Some(other), Some(same), Some(same)], THRESHOLD);
        assert_eq!(pairs.iter().map(|p| (p.earlier, p.later)).collect::<Vec<_>>(), vec![(0, 2), (0, 3), (2, 3)]);
        assert!(pairs.iter().all(|p| (p.score - 1.0).abs() < 1e-4), "{pairs:#?}");
    }

    #[test]
    fn a_skill_is_reported_with_its_three_strongest_competitors_and_a_count_of_the_rest() {
        let found = vec![(0, 0.6, vec![]), (1, 0.9, vec![]), (2, 0.7, vec![]), (3, 0.9, vec![]), (4, 0.95, vec![])];
        let (kept, more) = strongest(found, |i| i != 4);
        assert_eq!(kept.iter().map(|k| k.0).collect::<Vec<_>>(), [1, 3, 2]);
        assert_eq!(more, 1);
    }

    /// The inverted index gives the same pairs and scores as comparing every pair outright.
    #[test]
    fn the_index_agrees_with_all_pairs() {
        let words = ["pdf", "form", "csv", "table", "slack", "review", "code", "deploy", "docker", "test"];
        let mut seed = 7u64;
        let mut next = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        let docs: Vec<String> = (0..60)
            .map(|_| (0..2 + next() % 5).map(|_| words[next() % words.len()]).collect::<Vec<_>>().join(" "))
            .collect();
        let refs: Vec<Option<&str>> = docs.iter().map(|d| Some(d.as_str())).collect();
        let fast = competing(&refs, 0.3);
        // Brute force, with the IDF of the documents up to the later of each pair.
        let mut slow = vec![];
        for j in 0..docs.len() {
            let prefix: Vec<Vec<String>> =
                docs[..=j].iter().map(|d| terms(d).into_iter().map(|(s, _)| s).collect()).collect();
            let n = (prefix.len() + BACKGROUND) as f32;
            let idf = |t: &str| {
                let df = prefix.iter().filter(|d| d.iter().any(|x| x == t)).count() as f32;
                (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
            };
            let vec = |d: &Vec<String>| {
                let mut m: std::collections::BTreeMap<&str, f32> = Default::default();
                d.iter().for_each(|t| *m.entry(t.as_str()).or_default() += 1.0);
                m.into_iter().map(|(t, c)| (t.to_string(), (1.0 + c.ln()) * idf(t))).collect::<Vec<_>>()
            };
            let b = vec(&prefix[j]);
            for (i, di) in prefix.iter().enumerate().take(j) {
                let a = vec(di);
                let dot: f32 = a.iter().filter_map(|(t, w)| b.iter().find(|(u, _)| u == t).map(|(_, v)| w * v)).sum();
                let na = a.iter().map(|(_, w)| w * w).sum::<f32>().sqrt();
                let nb = b.iter().map(|(_, w)| w * w).sum::<f32>().sqrt();
                let s = dot / (na * nb);
                if s >= 0.3 {
                    slow.push((i, j, s));
                }
            }
        }
        assert_eq!(fast.len(), slow.len());
        for (f, s) in fast.iter().zip(&slow) {
            assert_eq!((f.earlier, f.later), (s.0, s.1));
            assert!((f.score - s.2.min(1.0)).abs() < 1e-4, "{f:?} {s:?}");
        }
        assert!(!fast.is_empty());
    }
}
