//! The optimization report as text, JUnit and HTML (descriptions, queries and ids are the
//! suite's and the model's: untrusted, escaped).

use super::types::*;

/// Text escaped for HTML content and attribute values (descriptions, queries and ids are the
/// suite's and the model's: untrusted).
fn html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() && c != '\n' && c != '\t' => out.push_str(&format!("&#{};", c as u32)),
            c => out.push(c),
        }
    }
    out
}

fn shown(x: Option<f64>) -> String {
    x.map_or_else(|| "n/a".to_string(), |x| format!("{x:.2}"))
}

impl OptimizeReport {
    /// A plain HTML page of the report: no script, no remote loads; every text of the suite, the
    /// library or the models escaped. A chart (inline SVG) of the training and test pass rates
    /// per iteration and agent, then per iteration the description, its diff and the scores.
    pub fn html(&self) -> String {
        let mut out = String::from(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n",
        );
        out.push_str(&format!("<title>Description optimization: {}</title>\n", html(&self.skill)));
        out.push_str(
            "<style>body{font:14px system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}\
             table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}\
             pre{white-space:pre-wrap;background:#f6f6f6;padding:.5rem}ins{background:#cfc}del{background:#fcc}\
             .best{outline:2px solid #393}</style>\n</head>\n<body>\n",
        );
        out.push_str(&format!("<h1>Description optimization: <code>{}</code></h1>\n", html(&self.skill)));
        out.push_str(&format!(
            "<p>Targets: {} · {} · model {} · improver {} · {} run(s) per query, threshold {} · holdout {}, seed {} \
             · {} training and {} test queries.</p>\n",
            html(&self.agents.join(", ")),
            html(&self.provider),
            html(&self.model),
            html(&self.improver_model),
            self.runs,
            self.threshold,
            self.holdout,
            self.seed,
            self.split.train.len(),
            self.split.test.len()
        ));
        out.push_str(&format!("<p>Stopped: {}.</p>\n", html(&self.stop.message)));
        match &self.best {
            Some(b) => {
                out.push_str(&format!("<p>Best: iteration {}.</p>\n<pre>{}</pre>\n", b.iteration, html(&b.description)))
            }
            None => out.push_str("<p>No candidate every target lists whole was measured.</p>\n"),
        }
        out.push_str(&self.chart());
        for it in &self.iterations {
            let best = self.best.as_ref().is_some_and(|b| b.iteration == it.iteration);
            out.push_str(&format!(
                "<section{}>\n<h2>Iteration {}{}</h2>\n",
                if best { " class=\"best\"" } else { "" },
                it.iteration,
                if best { " (best)" } else { "" }
            ));
            out.push_str(&format!("<pre>{}</pre>\n<p>{} characters", html(&it.description), it.chars));
            for l in &it.limits {
                out.push_str(&format!("; not eligible: {}", html(l)));
            }
            out.push_str(".</p>\n");
            if !it.diff.is_empty() {
                out.push_str("<p>Changes: ");
                for c in &it.diff {
                    match c {
                        Change::Same(t) => out.push_str(&format!("{} ", html(t))),
                        Change::Added(t) => out.push_str(&format!("<ins>{}</ins> ", html(t))),
                        Change::Removed(t) => out.push_str(&format!("<del>{}</del> ", html(t))),
                    }
                }
                out.push_str("</p>\n");
            }
            out.push_str(
                "<table>\n<tr><th>agent</th><th>split</th><th>passed</th><th>recall</th><th>false triggers</th>\
                 <th>precision</th><th>F1</th></tr>\n",
            );
            for a in &it.agents {
                for (name, s) in [("train", &a.train), ("test", &a.test)] {
                    out.push_str(&format!(
                        "<tr><td>{}</td><td>{name}</td><td>{}/{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                        html(&a.agent),
                        s.passed,
                        s.total,
                        shown(s.recall),
                        shown(s.false_trigger_rate),
                        shown(s.precision),
                        shown(s.f1)
                    ));
                }
            }
            out.push_str("</table>\n</section>\n");
        }
        out.push_str("</body>\n</html>\n");
        out
    }

    /// The pass rates per iteration as an inline SVG: one line per agent and split (test dashed).
    fn chart(&self) -> String {
        if self.iterations.is_empty() {
            return String::new();
        }
        let (w, h, pad) = (480.0, 200.0, 30.0);
        let n = self.iterations.len().max(2) - 1;
        let x = |i: usize| pad + (w - 2.0 * pad) * i as f64 / n as f64;
        let y = |r: f64| h - pad - (h - 2.0 * pad) * r;
        let mut out = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" role=\"img\" \
             aria-label=\"training and test pass rates per iteration\">\n\
             <line x1=\"{pad}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#999\"/>\n",
            y(0.0),
            w - pad,
            y(0.0)
        );
        let colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"];
        for (k, agent) in self.agents.iter().enumerate() {
            let colour = colours[k % colours.len()];
            for (split, dash) in [(SplitName::Train, ""), (SplitName::Test, " stroke-dasharray=\"4 3\"")] {
                let points: Vec<String> = self
                    .iterations
                    .iter()
                    .enumerate()
                    .filter_map(|(i, it)| {
                        let a = it.agents.iter().find(|a| &a.agent == agent)?;
                        let s = if split == SplitName::Train { &a.train } else { &a.test };
                        let r = if s.total == 0 { 0.0 } else { f64::from(s.passed) / f64::from(s.total) };
                        Some(format!("{:.1},{:.1}", x(i), y(r)))
                    })
                    .collect();
                out.push_str(&format!(
                    "<polyline fill=\"none\" stroke=\"{colour}\"{dash} points=\"{}\"><title>{} {}</title></polyline>\n",
                    points.join(" "),
                    html(agent),
                    if split == SplitName::Train { "train" } else { "test" }
                ));
            }
        }
        out.push_str("</svg>\n<p>Solid: training pass rate; dashed: test pass rate; one colour per agent.</p>\n");
        out
    }

    /// JUnit XML: one test suite per target, one test case per query, judged on the best
    /// iteration (none: every case fails), the case's class name its split.
    pub fn junit(&self) -> String {
        use crate::eval::report::xml;
        let best = self.best.as_ref().and_then(|b| self.iterations.iter().find(|i| i.iteration == b.iteration));
        let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        let cases = self.split.train.len() + self.split.test.len();
        let failures: usize = match best {
            Some(b) => b.agents.iter().map(|a| a.queries.iter().filter(|q| !q.pass).count()).sum(),
            None => cases * self.agents.len(),
        };
        out.push_str(&format!(
            "<testsuites name=\"skillkit eval optimize\" tests=\"{}\" failures=\"{failures}\">\n",
            cases * self.agents.len()
        ));
        for agent in &self.agents {
            let result = best.and_then(|b| b.agents.iter().find(|a| &a.agent == agent));
            let fails = result.map_or(cases, |a| a.queries.iter().filter(|q| !q.pass).count());
            out.push_str(&format!(
                "  <testsuite name=\"{}\" tests=\"{cases}\" failures=\"{fails}\">\n",
                xml(&format!("{} / {}", self.skill, agent))
            ));
            let ids =
                self.split.train.iter().map(|id| ("train", id)).chain(self.split.test.iter().map(|id| ("test", id)));
            for (split, id) in ids {
                out.push_str(&format!("    <testcase classname=\"{split}\" name=\"{}\"", xml(id)));
                match result.and_then(|a| a.queries.iter().find(|q| &q.id == id)) {
                    Some(q) if q.pass => out.push_str("/>\n"),
                    Some(q) => out.push_str(&format!(
                        ">\n      <failure message=\"{} {} of {} runs; it should {}trigger\"/>\n    </testcase>\n",
                        xml(&self.skill),
                        q.triggered,
                        q.runs,
                        if q.should_trigger { "" } else { "not " }
                    )),
                    None => out.push_str(">\n      <failure message=\"no eligible description\"/>\n    </testcase>\n"),
                }
            }
            out.push_str("  </testsuite>\n");
        }
        out.push_str("</testsuites>\n");
        out
    }
}
