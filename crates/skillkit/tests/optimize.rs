//! The description optimizer (`skillkit::eval::optimize`) against the mock provider: a scripted
//! model whose replies depend on the description in the prompt, and a scripted improver whose
//! candidates have known scores, so the split, every count, the pick and the stop rule are
//! exact; no test query reaches the improver; the 1,024-character rule; cancellation.

use mock_provider::{MockServer, Reply, Rule, Script};
use serde_json::{json, Value};
use skillkit::eval::optimize::{optimize, split, Optimization, OptimizeOptions, OptimizeReport, StopReason};
use skillkit::eval::{Case, Suite, NONE};
use skillkit::model::{provider, Cancel, ProviderConfig, ProviderKind};
use std::path::{Path, PathBuf};

const QUERIES: [(&str, &str, &str); 10] = [
    ("p1", "Make a Markdown table from sales.csv", "csv"),
    ("p2", "Turn the spreadsheet export into a table for the README", "csv"),
    ("p3", "Format these comma-separated rows as Markdown", "csv"),
    ("p4", "Convert data.tsv to a table", "csv"),
    ("p5", "I have a CSV; render it nicely for the docs", "csv"),
    ("n1", "Pull the tables out of report.pdf", "pdf"),
    ("n2", "What is the capital of France?", NONE),
    ("n3", "Plot sales.csv as a bar chart", NONE),
    ("n4", "Merge two PDF files", "pdf"),
    ("n5", "Write a SQL query over the orders table", NONE),
];

/// The candidates: the saved description, then the improver's answers. Each ends in a phrase
/// no other has (the mock's `context`).
const D: [(&str, &str); 4] = [
    ("Makes tables from CSV files.", "tables from CSV files."),
    ("Converts CSV and TSV exports into Markdown tables for READMEs and docs.", "for READMEs and docs."),
    (
        "Formats comma-separated or tab-separated data as Markdown tables. Use when a user wants rows shown as a table.",
        "rows shown as a table.",
    ),
    ("Turns CSV or TSV files into Markdown tables. Use to tabulate data.", "to tabulate data."),
];

const CC: u8 = 1;
const CX: u8 = 2;
const BOTH: u8 = CC | CX;

/// Which queries each candidate triggers, under which agents (a query not listed never
/// triggers). D0's p1 under Claude Code triggers 2 runs of 3.
const TRIGGERS: &[(usize, &str, u8)] = &[
    (0, "p1", BOTH),
    (0, "n3", CC),
    (1, "p1", BOTH),
    (1, "p2", BOTH),
    (1, "p3", CC),
    (1, "p4", BOTH),
    (1, "p5", BOTH),
    (1, "n5", CX),
    (2, "p1", BOTH),
    (2, "p2", BOTH),
    (2, "p3", BOTH),
    (2, "p4", BOTH),
    (2, "n3", BOTH),
    (2, "n5", CX),
    (3, "p1", BOTH),
    (3, "p2", BOTH),
    (3, "p3", BOTH),
    (3, "p4", BOTH),
    (3, "p5", BOTH),
];

fn query(id: &str) -> &'static str {
    QUERIES.iter().find(|q| q.0 == id).unwrap().1
}

fn cases() -> Vec<Case> {
    QUERIES.iter().map(|(id, q, e)| Case { id: id.to_string(), query: q.to_string(), expect: e.to_string() }).collect()
}

fn skill(name: &str, description: &str) -> String {
    format!("---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n\nSteps for {name}.\n")
}

/// Two skills, csv with `description`; returns the sources.
fn library(root: &Path, description: &str) -> Vec<PathBuf> {
    for (name, text) in [("csv", skill("csv", description)), ("pdf", skill("pdf", "Extracts text from PDF files."))] {
        std::fs::create_dir_all(root.join("skills").join(name)).unwrap();
        std::fs::write(root.join("skills").join(name).join("SKILL.md"), text).unwrap();
    }
    vec![root.join("skills")]
}

fn rule(contains: &str, context: Option<&str>, replies: Vec<Reply>) -> Rule {
    Rule { contains: Some(contains.into()), context: context.map(str::to_string), replies, ..Rule::default() }
}

fn skill_call() -> Reply {
    Reply::tool("Skill", json!({"skill": "csv"}))
}

fn codex_read() -> Reply {
    Reply::tool("exec_command", json!({"cmd": "cat {{path:csv}}"}))
}

fn improved(d: &str) -> Reply {
    Reply::text(format!("Here it is.\n<description>{d}</description>"))
}

/// The improver's rules (first: its requests hold the training queries' text too), then per
/// trigger a Codex rule (its listing line ends `(file: …)`) and a Claude Code rule.
fn script(improver: Vec<Rule>, triggers: &[(usize, &str, u8)], candidates: &[(&str, &str)]) -> Script {
    let mut rules = improver;
    for &(c, id, agents) in triggers {
        if agents & CX != 0 {
            rules.push(rule(query(id), Some(&format!("{} (file:", candidates[c].1)), vec![codex_read()]));
        }
    }
    for &(c, id, agents) in triggers {
        if agents & CC != 0 {
            let replies = if (c, id) == (0, "p1") {
                vec![skill_call(), Reply::text("A table, then."), skill_call()]
            } else {
                vec![skill_call()]
            };
            rules.push(rule(query(id), Some(candidates[c].1), replies));
        }
    }
    Script { rules, default: Some(Reply::text("No skill needed.")), ..Script::default() }
}

fn improver_rules() -> Vec<Rule> {
    vec![
        rule("This is attempt 1.", None, vec![improved(D[1].0)]),
        rule("Attempt 2 again", None, vec![improved(D[2].0)]),
        rule("This is attempt 2.", None, vec![improved(&format!("{} {}", "Tables.".repeat(157), D[2].1))]),
        rule("This is attempt 3.", None, vec![improved(D[3].0)]),
    ]
}

fn config(server: &MockServer, model: &str) -> ProviderConfig {
    let mut c = ProviderConfig::new(ProviderKind::OpenAi, model);
    c.base_url = Some(server.base_url());
    c.retry_base = std::time::Duration::from_millis(10);
    c
}

fn options() -> OptimizeOptions {
    OptimizeOptions { runs: 3, concurrency: 4, threshold: 0.5, iterations: 5, holdout: 0.4, seed: 7 }
}

fn run(
    server: &MockServer,
    sources: &[PathBuf],
    options: OptimizeOptions,
    cancel: &Cancel,
    progress: &(dyn Fn(skillkit::eval::optimize::OptimizeProgress) + Sync),
) -> OptimizeReport {
    let agents = [skillkit::find_agent("claude-code").unwrap(), skillkit::find_agent("codex").unwrap()];
    let suite = Suite { cases: cases(), ..Suite::default() };
    let (eval, improver) = (config(server, "eval-model"), config(server, "improver-model"));
    let o = Optimization {
        skill: "csv",
        agents: &agents,
        sources,
        suite: &suite,
        eval: &eval,
        improver: &improver,
        options,
    };
    optimize(&o, provider(&eval).as_ref(), cancel, progress).unwrap()
}

/// Per iteration and agent: (train passed, test passed).
fn passed(r: &OptimizeReport) -> Vec<Vec<(u32, u32)>> {
    r.iterations.iter().map(|i| i.agents.iter().map(|a| (a.train.passed, a.test.passed)).collect()).collect()
}

#[test]
fn the_split_is_stratified_seeded_and_keeps_both_classes_on_both_sides() {
    let s = split(&cases(), "csv", 0.4, 7).unwrap();
    assert_eq!(s.train, ["p1", "p3", "p4", "n2", "n4", "n5"]);
    assert_eq!(s.test, ["p2", "p5", "n1", "n3"]);
    for seed in 0..50 {
        let s = split(&cases(), "csv", 0.4, seed).unwrap();
        assert_eq!(s, split(&cases(), "csv", 0.4, seed).unwrap());
        // floor(5 × 0.4) = 2 of each class in test.
        assert_eq!(s.test.iter().filter(|id| id.starts_with('p')).count(), 2, "{seed}");
        assert_eq!(s.test.iter().filter(|id| id.starts_with('n')).count(), 2, "{seed}");
        // Even a large holdout leaves one of each class to train on.
        let big = split(&cases(), "csv", 0.99, seed).unwrap();
        assert_eq!(big.train.len(), 2, "{seed}: {big:?}");
    }
    let small = split(&cases(), "csv", 0.01, 1).unwrap();
    assert_eq!(small.test.len(), 2);
    let one = &cases()[4..];
    assert_eq!(
        split(one, "csv", 0.4, 0).unwrap_err().to_string(),
        "the suite has 1 query that should trigger `csv` and 5 that should not; the split needs at least 2 of each"
    );
    assert!(split(&cases(), "csv", 1.0, 0).is_err());
}

#[test]
fn a_scripted_optimization_gives_the_exact_counts_pick_and_stop() {
    let tmp = tempfile::tempdir().unwrap();
    let sources = library(tmp.path(), D[0].0);
    let server = MockServer::start(script(improver_rules(), TRIGGERS, &D));
    let r = run(&server, &sources, options(), &Cancel::new(), &|_| {});
    assert_eq!(r.split.train, ["p1", "p3", "p4", "n2", "n4", "n5"]);
    assert_eq!(r.split.test, ["p2", "p5", "n1", "n3"]);
    assert_eq!(r.iterations.iter().map(|i| i.description.as_str()).collect::<Vec<_>>(), D.map(|d| d.0));
    // [claude-code, codex] × (train, test).
    assert_eq!(passed(&r), [vec![(4, 1), (4, 2)], vec![(6, 4), (4, 4)], vec![(6, 2), (5, 2)], vec![(6, 4), (6, 4)],]);
    assert_eq!(
        r.iterations.iter().map(|i| (i.train_passed, i.test_passed)).collect::<Vec<_>>(),
        [(8, 3), (10, 8), (11, 4), (12, 8)]
    );
    // D1 and D3 tie on the test split: the shorter (D3, 66 characters against 71) is the pick.
    assert_eq!((r.iterations[1].chars, r.iterations[3].chars), (71, 66));
    let best = r.best.clone().unwrap();
    assert_eq!((best.iteration, best.description.as_str()), (3, D[3].0));
    // Every training query passed under both agents with D3: stopped before the 5 allowed.
    assert_eq!(r.stop.reason, StopReason::AllTrainPass);
    assert!(r.iterations.iter().all(|i| i.eligible && i.limits.is_empty()));
    // 4 candidates × 2 agents × 10 queries × 3 runs, and 4 improver calls (attempt 2 twice).
    assert_eq!(r.requests, 244);
    // The per-agent scores, by query.
    let d0_cc = &r.iterations[0].agents[0];
    assert_eq!(d0_cc.agent, "claude-code");
    let p1 = d0_cc.queries.iter().find(|q| q.id == "p1").unwrap();
    assert_eq!((p1.triggered, p1.runs, p1.rate, p1.pass), (2, 3, 0.6667, true));
    let t = &d0_cc.test;
    assert_eq!((t.tp, t.fp, t.fn_, t.tn), (0, 1, 2, 1));
    assert_eq!((t.recall, t.false_trigger_rate, t.precision, t.f1), (Some(0.0), Some(0.5), Some(0.0), Some(0.0)));
    let d1_cx = &r.iterations[1].agents[1];
    assert_eq!(d1_cx.agent, "codex");
    let t = &d1_cx.train;
    assert_eq!((t.tp, t.fp, t.fn_, t.tn), (2, 1, 1, 2));
    assert_eq!(
        (t.recall, t.false_trigger_rate, t.precision, t.f1),
        (Some(0.6667), Some(0.3333), Some(0.6667), Some(0.6667))
    );
    // The diff from the previous description.
    assert!(r.iterations[0].diff.is_empty());
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(
        json["iterations"][3]["diff"],
        json!([
            {"op": "removed", "text": "Formats comma-separated"},
            {"op": "added", "text": "Turns CSV"},
            {"op": "same", "text": "or"},
            {"op": "removed", "text": "tab-separated data as"},
            {"op": "added", "text": "TSV files into"},
            {"op": "same", "text": "Markdown tables. Use"},
            {"op": "removed", "text": "when a user wants rows shown as a table."},
            {"op": "added", "text": "to tabulate data."}
        ])
    );
    assert_eq!(json["best"], json!({"iteration": 3, "description": D[3].0}));
    assert_eq!(json["split"]["test"], json!(["p2", "p5", "n1", "n3"]));
}

#[test]
fn no_test_query_reaches_the_improver() {
    let tmp = tempfile::tempdir().unwrap();
    let sources = library(tmp.path(), D[0].0);
    let server = MockServer::start(script(improver_rules(), TRIGGERS, &D));
    let r = run(&server, &sources, options(), &Cancel::new(), &|_| {});
    let improver: Vec<Value> =
        server.requests().into_iter().filter(|q| q.body["model"] == "improver-model").map(|q| q.body).collect();
    assert_eq!(improver.len(), 4);
    for body in &improver {
        let text = body.to_string();
        for id in &r.split.test {
            let q = serde_json::to_string(query(id)).unwrap();
            assert!(!text.contains(q.trim_matches('"')), "test query {id} in {text}");
        }
        // What it does see: every training query, the whole SKILL.md.
        for id in &r.split.train {
            let q = serde_json::to_string(query(id)).unwrap();
            assert!(text.contains(q.trim_matches('"')), "training query {id} missing from {text}");
        }
        assert!(text.contains("# csv\\n\\nSteps for csv."), "{text}");
    }
    // Every previous attempt with its training score (attempt 3's request).
    let third = improver.last().unwrap().to_string();
    for line in [
        "Attempt 0 (training: claude-code 4/6, codex 4/6)",
        "Attempt 1 (training: claude-code 6/6, codex 4/6)",
        "Attempt 2 (training: claude-code 6/6, codex 5/6)",
    ] {
        assert!(third.contains(line), "{line} missing from {third}");
    }
    // The retry of attempt 2 says how long the answer was.
    assert!(improver[2].to_string().contains("That answer is a description of 1122 characters."), "{}", improver[2]);
}

#[test]
fn a_description_over_1024_characters_is_never_the_pick() {
    // The saved description is long and triggers every should-trigger query; the improver's
    // shorter one passes fewer, but only it is eligible.
    let long = format!("{} Use for CSV tables, always and only.", "Tables from CSV. ".repeat(64));
    assert!(long.chars().count() > 1024);
    let short = ("Turns CSV files into Markdown tables.", "into Markdown tables.");
    let candidates = [(long.as_str(), "always and only."), short];
    let mut triggers: Vec<(usize, &str, u8)> = ["p1", "p2", "p3", "p4", "p5"].iter().map(|p| (0, *p, CC)).collect();
    triggers.push((1, "p1", BOTH));
    let tmp = tempfile::tempdir().unwrap();
    let sources = library(tmp.path(), &long);
    // Codex cuts a long description to 1,021 characters + `...`: its marker never shows, so
    // Codex needs no rule of its own for it.
    let improver = vec![
        rule("This is attempt 1.", None, vec![improved(short.0)]),
        rule("This is attempt 2.", None, vec![Reply::text("x".repeat(1025))]),
        rule("Attempt 2 again", None, vec![Reply::text("y".repeat(1025))]),
    ];
    let server = MockServer::start(script(improver, &triggers, &candidates));
    let r = run(&server, &sources, options(), &Cancel::new(), &|_| {});
    assert_eq!(r.iterations.len(), 2);
    let first = &r.iterations[0];
    assert!(!first.eligible);
    assert_eq!(
        first.limits,
        [
            format!("{} characters, over the limit of 1024", long.chars().count()),
            "codex lists the skill with a shortened description".to_string()
        ]
    );
    assert_eq!(first.agents[0].test.passed, 4);
    assert!(r.iterations[1].agents[0].test.passed < 4);
    assert_eq!(r.best.as_ref().map(|b| b.iteration), Some(1));
    // Attempt 2 answered over the limit, and again after being told: the loop stops there.
    assert_eq!(r.stop.reason, StopReason::TooLong);
    assert_eq!(
        r.stop.message,
        "the improver answered attempt 2 with a description of 1025 characters twice; the limit is 1024 characters"
    );
}

#[test]
fn cancelling_mid_iteration_keeps_the_completed_iterations() {
    let tmp = tempfile::tempdir().unwrap();
    let sources = library(tmp.path(), D[0].0);
    let server = MockServer::start(script(improver_rules(), TRIGGERS, &D));
    let cancel = Cancel::new();
    let seen = std::sync::Mutex::new(vec![]);
    let r = run(&server, &sources, options(), &cancel, &|p| {
        seen.lock().unwrap().push(p);
        if p.iteration == 2 && p.done >= 7 {
            cancel.cancel();
        }
    });
    assert_eq!(r.stop.reason, StopReason::Cancelled);
    assert_eq!(r.iterations.len(), 2, "iterations 0 and 1 complete, 2 cut short");
    assert_eq!(passed(&r), [vec![(4, 1), (4, 2)], vec![(6, 4), (4, 4)]]);
    assert_eq!(r.best.as_ref().map(|b| b.iteration), Some(1));
    let seen = seen.lock().unwrap();
    assert!(seen.iter().all(|p| p.total == 60 && p.done <= 60));
    assert!(seen.iter().any(|p| p.iteration == 1 && p.done == 60));
}
