use crate::lint::rules::Context;

declare_rule! {
    /// Two skills' descriptions are so alike that they compete for the same queries.
    ///
    /// ## What it does
    /// Compares the descriptions of the skills of a library, with no model: each description is
    /// cut to its trigger clause (from the first "Use when…", "When the user…", "Triggers on…"
    /// and the like to its end; the whole description when it has none, or fewer than three
    /// words there), split into words, stop words dropped (English function words and the words
    /// every description uses to say when, such as *use*, *user*, *asks*, *skill*), the rest
    /// stemmed (`pdfs` and `pdf`, `reviewing` and `review` meet). Each description is then a
    /// TF-IDF vector, the IDF BM25's and computed over the library (as if ten more skills sat
    /// beside it, so that in a library of two a shared word still counts), and a pair whose
    /// cosine is 0.5 or more is reported (a library-level check: it runs when a library or a
    /// folder of skills is loaded, not on a single file).
    ///
    /// **It is off unless turned on**, with a level in the project's configuration (`[rules]
    /// competing-descriptions = "note"`, or `"warning"` to make it count), which `skillkit
    /// check` reads (with `--watch` and `--write-baseline` too): on a library of templated
    /// look-alikes it would mark nearly every skill (the synthetic library of
    /// `bench/check_library.sh`, whose skills are a few verbs, nouns and platforms in a dozen
    /// sentence templates, gets a note on almost every one of its 10,000 skills). The app and
    /// the language server do not turn it on yet.
    ///
    /// The finding points at the `description` and names the other skill's file, the score and
    /// the heaviest shared words; a skill is reported with its three strongest competitors at
    /// most, the last note counting the others (a family of 140 templated "automate X" skills in
    /// a held-back library of 5,000 would give each a note per sibling). A `check` report gives each pair once, on the later skill in
    /// path order, naming the earlier, as it gives a name used twice (`duplicate-skill-name`,
    /// SK701): a check reads the library as a stream, so each pair is scored when its later skill
    /// is read, with the IDF of the skills read so far. A library held whole (the engine's
    /// `Library`, with `competing` set) scores the pairs the same way and marks both skills. Two
    /// skills of the same name are left to SK701 and SK704. The skills are kept in an inverted
    /// index, so a skill is scored only against those sharing a word with it (and, when more than
    /// a thousand do, against the thousand closest by dot product): the work follows the shared
    /// words, not the square of the library.
    ///
    /// ## Why is this bad?
    /// An agent picks one skill per query from the descriptions alone. When two say the same
    /// thing, which one answers depends on the model's mood: one skill steals the other's queries
    /// and the other looks as if it never triggers. `skillkit eval` measures it (its confusion
    /// table says which skill took which skill's queries); this check finds the likely pairs
    /// before any model is asked.
    ///
    /// ## How the threshold was chosen
    /// On the corpus of five published libraries (1,168 skills), with `bench/overlap.sh`, which
    /// prints for each library the pairs and skills at candidate thresholds and the pairs
    /// themselves. At 0.5 it flags 66 pairs (93 skills, 8 %): none in a library of 12 skills or
    /// in one of 14, 58 pairs (80 skills) in one of 419, 3 (6 skills) in one of 181 and 5 (7
    /// skills) in one of 542. Read by hand, the pairs above 0.5 are skills a query could go to
    /// either way: a review for one cloud next to the same review for another, word for word but
    /// the vendor; four "best practices for unit tests" skills that differ only in the test
    /// framework's name; two commit-message writers; a form-conversion skill next to a
    /// signup-conversion skill that both claim signup forms; two "search is slow" skills of one
    /// database. The doubtful ones there are skills whose descriptions say next to nothing (two
    /// skills each described only as converted from a prompt file), which compete for that very
    /// reason. Between 0.4 and 0.5 true and false hits mix: two pull-request reviewers (0.49) and
    /// two plan-executing skills (0.46) that do compete, next to two one-word descriptions
    /// sharing "generator" and async patterns for two languages. 0.5 keeps the notes to pairs
    /// worth a look; at 0.4 the corpus gives 128 pairs (164 skills), at 0.6 45 (68 skills).
    ///
    /// ## Example
    /// ```library
    /// fill-pdf-forms: Fills PDF forms. Use when the user wants to fill in a PDF form or read its form fields.
    /// edit-pdfs: Edits PDF files. Use when the user asks to fill PDF form fields or merge PDF pages.
    /// ```
    ///
    /// ## Use instead
    /// Say what sets each skill apart (its input, its platform, what it does not do):
    /// ```library
    /// fill-pdf-forms: Fills the fields of fillable PDF forms. Use when the user wants a form's fields filled in or read out.
    /// edit-pdfs: Merges, splits and rotates the pages of PDF files. Use when the user asks to combine or reorder PDF pages.
    /// ```
    ///
    /// ## Fix
    /// Make each description name what only it does, or merge the two skills. Then measure with
    /// `skillkit eval`: its confusion table shows whether one still takes the other's queries.
    pub CompetingDescriptions {
        code: "SK705",
        name: "competing-descriptions",
        group: Library,
        severity: Info,
        fix: None,
        sources: [
            "agentskills.io specification: the description says what the skill does and when to use it (agents choose from it)",
            "Robertson and Zaragoza, The Probabilistic Relevance Framework: BM25 and Beyond (2009): the IDF",
        ],
    }
}

/// A library-level rule: see `Library::resolve` and [`crate::library::overlap`]. Nothing to
/// check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}

#[cfg(test)]
mod tests {
    use super::CompetingDescriptions;
    use crate::library::overlap::{competing, THRESHOLD};

    /// The ```library blocks under `## section` of the rule's docs: each line `name: description`.
    fn blocks(section: &str) -> Vec<Vec<String>> {
        let docs = CompetingDescriptions::META.docs_text();
        let mut out = vec![];
        let mut in_section = false;
        let mut block: Option<Vec<String>> = None;
        for line in docs.lines() {
            if let Some(b) = block.as_mut() {
                if line == "```" {
                    out.push(block.take().unwrap());
                } else {
                    b.push(line.split_once(": ").expect("name: description").1.to_string());
                }
            } else if let Some(h) = line.strip_prefix("## ") {
                in_section = h == section;
            } else if in_section && line == "```library" {
                block = Some(vec![]);
            }
        }
        out
    }

    #[test]
    fn the_example_competes_and_the_fixed_one_does_not() {
        let bad = blocks("Example");
        let good = blocks("Use instead");
        assert_eq!((bad.len(), good.len()), (1, 1));
        for (block, competes) in [(&bad[0], true), (&good[0], false)] {
            let refs: Vec<Option<&str>> = block.iter().map(|d| Some(d.as_str())).collect();
            let pairs = competing(&refs, THRESHOLD);
            assert_eq!(!pairs.is_empty(), competes, "{block:#?}: {pairs:#?}");
        }
    }
}
