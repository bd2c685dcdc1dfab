//! Drafted trigger suites (`skillkit eval draft`): the model is asked for realistic queries that
//! should use a skill and near misses that should not (varied in length and phrasing, some
//! naming other skills of the library), and the answer becomes a [`Suite`] for the author to
//! review before any run. The model answers a JSON list in skill-creator's shape
//! (`[{"query", "should_trigger"}]`); a should-trigger query expects the skill, the others
//! `none`. Case ids are `trigger-N` and `near-miss-N`; a query given twice is kept once.

use super::suite::{Case, Suite, NONE};
use crate::library::Library;
use crate::model::{Cancel, ChatRequest, Message, Provider, ProviderConfig, ProviderError};

/// The most queries one draft asks for.
pub const MAX_COUNT: u32 = 200;

/// Why no suite was drafted.
#[derive(Debug)]
pub enum DraftError {
    /// `count` is out of range.
    Count(u32),
    /// No skill of that name in the library.
    NoSkill { name: String },
    /// The request failed for good (or was cancelled).
    Provider(ProviderError),
    /// The answer is not a usable list; what is wrong with it.
    Reply(String),
}

impl std::fmt::Display for DraftError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DraftError::Count(n) => write!(f, "--count {n}: 2 to {MAX_COUNT} queries"),
            DraftError::NoSkill { name } => write!(f, "no skill named `{name}` in the library"),
            DraftError::Provider(e) => write!(f, "{e}"),
            DraftError::Reply(m) => write!(f, "the model's answer is not a usable list of queries: {m}"),
        }
    }
}

impl std::error::Error for DraftError {}

const SYSTEM: &str = "You write trigger evaluations for Agent Skills. An agent shows the model \
each skill's name and description and the model decides, from the user's request alone, whether \
to use a skill. Write realistic requests a user would type: vary their length (a few words to a \
short paragraph), tone and phrasing, and mention concrete files, tools and details. Half should \
make the model use the skill. The other half are near misses: requests on neighbouring topics \
that share words with the skill but should not use it; some of them belong to the other skills \
listed, and some name those skills. Answer with a JSON list only: \
[{\"query\": \"...\", \"should_trigger\": true}, ...].";

/// The request for `count` queries about the skill whose `SKILL.md` text is `skill_text`, with
/// the library's other skills (name and description) as neighbours.
pub fn request(
    skill: &str,
    skill_text: &str,
    others: &[(String, String)],
    count: u32,
    config: &ProviderConfig,
) -> ChatRequest {
    let mut user =
        format!("The skill `{skill}`. Its SKILL.md:\n\n<skill_md>\n{}\n</skill_md>\n", skill_text.trim_end());
    if others.is_empty() {
        user.push_str("\nThe library has no other skills.\n");
    } else {
        user.push_str("\nThe library's other skills:\n");
        for (name, description) in others {
            user.push_str(&format!("- {name}: {description}\n"));
        }
    }
    let should = count.div_ceil(2);
    user.push_str(&format!(
        "\nWrite {count} queries: {should} that should use `{skill}` and {} near misses that should not.\n",
        count - should
    ));
    config.request(Some(SYSTEM.to_string()), vec![Message::user(user)], vec![])
}

/// The cases in a model's answer: the JSON list in it (code fences and text around it ignored).
pub fn parse_answer(text: &str, skill: &str) -> Result<Vec<Case>, DraftError> {
    let (Some(start), Some(end)) = (text.find('['), text.rfind(']')) else {
        return Err(DraftError::Reply("no JSON list in it".into()));
    };
    if end < start {
        return Err(DraftError::Reply("no JSON list in it".into()));
    }
    let items: Vec<serde_json::Value> =
        serde_json::from_str(&text[start..=end]).map_err(|e| DraftError::Reply(format!("invalid JSON: {e}")))?;
    let mut cases: Vec<Case> = vec![];
    let (mut should, mut should_not) = (0, 0);
    for (i, item) in items.iter().enumerate() {
        let query = item.get("query").and_then(|q| q.as_str()).map(str::trim).filter(|q| !q.is_empty());
        let trigger = item.get("should_trigger").and_then(|t| t.as_bool());
        let (Some(query), Some(trigger)) = (query, trigger) else {
            return Err(DraftError::Reply(format!(
                "item {} needs a non-empty string `query` and a boolean `should_trigger`",
                i + 1
            )));
        };
        if cases.iter().any(|c| c.query == query) {
            continue;
        }
        let id = if trigger {
            should += 1;
            format!("trigger-{should}")
        } else {
            should_not += 1;
            format!("near-miss-{should_not}")
        };
        cases.push(Case { id, query: query.to_string(), expect: if trigger { skill.into() } else { NONE.into() } });
    }
    if should == 0 || should_not == 0 {
        return Err(DraftError::Reply(format!(
            "it has {should} quer{} that should trigger and {should_not} that should not; a suite needs both",
            if should == 1 { "y" } else { "ies" }
        )));
    }
    Ok(cases)
}

/// Drafts `count` queries for the skill named `skill` of `library` (see the module doc).
pub fn draft(
    skill: &str,
    library: &Library,
    count: u32,
    provider: &dyn Provider,
    config: &ProviderConfig,
    cancel: &Cancel,
) -> Result<Vec<Case>, DraftError> {
    if !(2..=MAX_COUNT).contains(&count) {
        return Err(DraftError::Count(count));
    }
    let mut own = None;
    let mut others = vec![];
    for e in library.entries.iter().filter(|e| e.shadowed_by.is_none()) {
        let fields = crate::frontmatter_edit::form_fields(&e.skill.text);
        let field = |k: &str| fields.iter().find(|f| f.key == k).and_then(|f| f.value.clone());
        let name = field("name").map_or_else(|| e.skill.dir_name.clone(), |n| n.trim().to_string());
        if name == skill && own.is_none() {
            own = Some(e.skill.text.clone());
        } else {
            others.push((name, field("description").unwrap_or_default().replace('\n', " ")));
        }
    }
    let text = own.ok_or_else(|| DraftError::NoSkill { name: skill.to_string() })?;
    let reply =
        provider.complete_with(&request(skill, &text, &others, count, config), cancel).map_err(DraftError::Provider)?;
    parse_answer(&reply.text, skill)
}

/// The drafted `cases` as a suite at `path` for the library `sources`: the sources written
/// relative to the suite's folder, `agent` when one is named.
pub fn suite_for(
    cases: Vec<Case>,
    path: &std::path::Path,
    sources: &[std::path::PathBuf],
    agent: Option<&str>,
) -> Suite {
    let dir = crate::scope::resolve_lenient(crate::session::script::folder_of(path));
    let sources = sources
        .iter()
        .map(|s| {
            let s = crate::scope::resolve_lenient(s);
            crate::session::script::relative(&s, &dir).to_string_lossy().into_owned()
        })
        .collect();
    Suite { agent: agent.map(str::to_string), sources, cases, ..Suite::default() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_is_read_with_its_fences_deduplicated_and_needs_both_classes() {
        let text = "Here you go:\n```json\n[{\"query\": \" Make a table of sales.csv \", \"should_trigger\": true},\n\
                    {\"query\": \"Plot sales.csv\", \"should_trigger\": false},\n\
                    {\"query\": \"Make a table of sales.csv\", \"should_trigger\": true},\n\
                    {\"query\": \"csv to md please\", \"should_trigger\": true}]\n```";
        let cases = parse_answer(text, "csv").unwrap();
        let got: Vec<(&str, &str, &str)> =
            cases.iter().map(|c| (c.id.as_str(), c.query.as_str(), c.expect.as_str())).collect();
        assert_eq!(
            got,
            [
                ("trigger-1", "Make a table of sales.csv", "csv"),
                ("near-miss-1", "Plot sales.csv", "none"),
                ("trigger-2", "csv to md please", "csv")
            ]
        );
        let one_class = parse_answer(r#"[{"query": "a", "should_trigger": true}]"#, "csv").unwrap_err();
        assert_eq!(
            one_class.to_string(),
            "the model's answer is not a usable list of queries: it has 1 query that should trigger and 0 that should not; a suite needs both"
        );
        assert!(parse_answer("no list", "csv").unwrap_err().to_string().ends_with("no JSON list in it"));
        assert!(parse_answer(r#"[{"query": 1}]"#, "csv").unwrap_err().to_string().contains("item 1 needs"));
    }

    #[test]
    fn the_request_names_the_counts_and_the_neighbours() {
        let config = ProviderConfig::new(crate::model::ProviderKind::OpenAi, "m");
        let others = [("pdf".to_string(), "Reads PDF files.".to_string())];
        let req = request("csv", "---\nname: csv\n---\nBody\n", &others, 5, &config);
        let crate::model::Block::Text(user) = &req.messages[0].content[0] else { panic!("{req:?}") };
        assert!(user.contains("- pdf: Reads PDF files.\n"), "{user}");
        assert!(user.contains("Write 5 queries: 3 that should use `csv` and 2 near misses"), "{user}");
        assert!(req.tools.is_empty());
    }
}
