//! The improver: the model call that proposes the next description, from the whole `SKILL.md`,
//! the targets, every previous attempt with its training score and the last attempt's training
//! results (never a test query or result), answering within [`MAX_DESCRIPTION_CHARS`].

use super::types::*;
use crate::eval::suite::Case;
use crate::model::{Cancel, Message, Provider, ProviderError, Role};

/// Asks the improver for attempt `n`; retried once when the answer is too long or empty.
pub(super) fn improve(
    o: &Optimization<'_>,
    provider: &dyn Provider,
    skill_text: &str,
    report: &OptimizeReport,
    n: u32,
    cancel: &Cancel,
) -> Result<(String, Totals), (Stop, Totals)> {
    let mut request = improver_request(o, skill_text, report, n);
    let mut totals: Totals = (0, 0, 0);
    for attempt in 0..2 {
        let reply = match provider.complete_with(&request, cancel) {
            Ok(r) => r,
            Err(ProviderError::Cancelled) => return Err((cancelled(), totals)),
            Err(e) => {
                let message = format!("the improver (attempt {n}): {e}");
                return Err((Stop { reason: StopReason::Error, message }, totals));
            }
        };
        totals.0 += 1;
        totals.1 += reply.usage.input_tokens;
        totals.2 += reply.usage.output_tokens;
        let answer = answer(&reply.text);
        let chars = answer.chars().count();
        let problem = if answer.is_empty() {
            (StopReason::NoDescription, "no description".to_string())
        } else if chars > MAX_DESCRIPTION_CHARS {
            (StopReason::TooLong, format!("a description of {chars} characters"))
        } else {
            return Ok((answer, totals));
        };
        if attempt == 1 {
            let message = format!(
                "the improver answered attempt {n} with {} twice; the limit is {MAX_DESCRIPTION_CHARS} characters",
                problem.1
            );
            return Err((Stop { reason: problem.0, message }, totals));
        }
        request.messages.push(Message::text(Role::Assistant, reply.text.clone()));
        request.messages.push(Message::user(format!(
            "That answer is {}. Attempt {n} again: one description of at most {MAX_DESCRIPTION_CHARS} characters, \
             between <description> and </description>.",
            problem.1
        )));
    }
    unreachable!("the loop returns on its second pass")
}

/// The description in an improver's answer: the text between `<description>` and
/// `</description>` when it has them, else the whole answer; trimmed.
pub fn answer(text: &str) -> String {
    let inner = text
        .find("<description>")
        .map(|i| &text[i + "<description>".len()..])
        .and_then(|rest| rest.find("</description>").map(|j| &rest[..j]));
    inner.unwrap_or(text).trim().to_string()
}

const IMPROVER_SYSTEM: &str = "You improve the description of an Agent Skill. An agent lists each \
installed skill's name and description to the model, which decides from the description alone \
whether to use the skill for a user's request. Write a description that makes the model use this \
skill for the requests it is meant for, and not for others that merely look alike. Say what the \
skill does and when to use it, in the words users would use; generalise from the examples rather \
than listing them. Answer with the description only, between <description> and </description>.";

/// The improver's request for attempt `n`: the whole `SKILL.md`, the targets, every previous
/// attempt with its training score, the last attempt's training results. Nothing of the test
/// split.
pub fn improver_request(
    o: &Optimization<'_>,
    skill_text: &str,
    report: &OptimizeReport,
    n: u32,
) -> crate::model::ChatRequest {
    let train: Vec<&Case> = o.suite.cases.iter().filter(|c| report.split.train.contains(&c.id)).collect();
    let mut user = format!(
        "The skill `{}`. Its SKILL.md:\n\n<skill_md>\n{}\n</skill_md>\n\nIt is listed to these agents: {}. \
         The description must have at most {MAX_DESCRIPTION_CHARS} characters, and each agent must list it whole.\n\n\
         A training query passes when the skill is used in at least {} of its {} runs exactly when it should be.\n",
        o.skill,
        skill_text.trim_end(),
        report.agents.join(", "),
        o.options.threshold,
        report.runs,
    );
    user.push_str("\nThe attempts so far, with their training scores:\n");
    for it in &report.iterations {
        let scores: Vec<String> =
            it.agents.iter().map(|a| format!("{} {}/{}", a.agent, a.train.passed, a.train.total)).collect();
        user.push_str(&format!(
            "\nAttempt {} (training: {}):\n<description>{}</description>\n",
            it.iteration,
            scores.join(", "),
            it.description
        ));
        for limit in &it.limits {
            user.push_str(&format!("Not allowed: {limit}.\n"));
        }
    }
    if let Some(last) = report.iterations.last() {
        user.push_str(&format!("\nThe training results of attempt {}:\n", last.iteration));
        for case in &train {
            let per_agent: Vec<String> = last
                .agents
                .iter()
                .filter_map(|a| a.queries.iter().find(|q| q.id == case.id).map(|q| (a, q)))
                .filter(|(_, q)| q.split == SplitName::Train)
                .map(|(a, q)| {
                    format!("{} {}/{} {}", a.agent, q.triggered, q.runs, if q.pass { "pass" } else { "FAIL" })
                })
                .collect();
            let class = if case.expect == o.skill { "should use the skill" } else { "should not use the skill" };
            user.push_str(&format!("- {class}: {:?} used in {}\n", case.query, per_agent.join(", ")));
        }
    }
    user.push_str(&format!("\nThis is attempt {n}. Write a better description.\n"));
    o.improver.request(Some(IMPROVER_SYSTEM.to_string()), vec![Message::user(user)], vec![])
}
