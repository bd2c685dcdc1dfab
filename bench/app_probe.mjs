// The app benchmark's probe (bench/app.sh runs it): drives the real Skill Studio window through
// tauri-driver's W3C WebDriver endpoint with plain HTTP (Node 20's fetch, no packages) and prints
// one JSON object with what it measured. Nothing here asserts a target.
//
//   node bench/app_probe.mjs PORT APP LIBRARY LONG_LIBRARY RUNS
//
// - start: from the new-session request (the app process is started by it) to the library
//   rendered with every skill (the window is interactive); also the page's own clock at that
//   moment (time since its navigation started). RUNS fresh processes.
// - keystroke: a real key event (WebDriver) in a 500-line SKILL.md to the squiggles changing,
//   timed inside the page (keydown listener to MutationObserver): the first 20 keys after the
//   file opens apart from the 2×RUNS keys after them; and the engine's part, the
//   `lint_text` round trip for the same text through the app's IPC.
// BENCH_DEBUG=1 logs progress to stderr.
// - idle: after the last start, prints {"idle":true} and waits for a line on stdin while
//   bench/app.sh reads the app's memory from /proc.
import { readdirSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [port, app, library, longLibrary, runsArg] = process.argv.slice(2);
const runs = Number(runsArg ?? 5);
const base = `http://127.0.0.1:${port}`;

async function wd(method, path, body) {
  const r = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const j = await r.json();
  if (!r.ok) throw new Error(`${method} ${path}: ${JSON.stringify(j.value ?? j)}`);
  return j.value;
}

async function session(lib) {
  for (let i = 0; ; i++) {
    try {
      const t0 = performance.now();
      const v = await wd('POST', '/session', {
        capabilities: { alwaysMatch: { browserName: 'wry', 'tauri:options': { application: app, args: [lib] } } },
      });
      return { id: v.sessionId, t0 };
    } catch (e) {
      if (i > 100) throw e;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

const log = (...a) => process.env.BENCH_DEBUG && console.error(...a);
const exec = (id, script, args = []) => wd('POST', `/session/${id}/execute/sync`, { script, args });
const execAsync = (id, script, args = []) => wd('POST', `/session/${id}/execute/async`, { script, args });

function skills(lib) {
  return readdirSync(lib).filter((n) => existsSync(join(lib, n, 'SKILL.md'))).length;
}

// Resolves (in the page) when the library shows `n` skills; returns the page clock then.
const WAIT_SKILLS = `
  const [n, done] = arguments;
  const ready = () => document.querySelectorAll('[data-testid=skill]').length === n;
  if (ready()) return done(performance.now());
  new MutationObserver((_, o) => { if (ready()) { o.disconnect(); done(performance.now()); } })
    .observe(document.body, { childList: true, subtree: true });`;

async function untilReady(id, n) {
  // The page may not be loaded when the session starts: retry until the script runs.
  for (;;) {
    try {
      return await execAsync(id, WAIT_SKILLS, [n]);
    } catch {
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
// The 95th percentile by nearest rank (the largest of up to 19 values).
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.ceil(0.95 * xs.length) - 1];
const stats = (xs) => ({ median: median(xs), p95: p95(xs), min: Math.min(...xs), max: Math.max(...xs), n: xs.length });

const FIRST_KEYS = 20;
const out = { start_ms: [], start_page_ms: [], keystroke_first_ms: [], keystroke_ms: [], lint_ipc_ms: [] };

// 1. Cold start, RUNS fresh app processes.
const n = skills(library);
for (let i = 0; i < runs; i++) {
  const { id, t0 } = await session(library);
  const page = await untilReady(id, n);
  out.start_ms.push(performance.now() - t0);
  out.start_page_ms.push(page);
  if (i === runs - 1) {
    // 3. Idle memory: the last window stays open; app.sh reads /proc while it is idle.
    process.stdout.write(JSON.stringify({ idle: true }) + '\n');
    // Wait for app.sh to say it has measured (a line on stdin).
    await new Promise((r) => process.stdin.once('data', r));
    process.stdin.destroy();
  }
  await wd('DELETE', `/session/${id}`);
}

// 2. Keystroke to squiggles in a 500-line SKILL.md.
{
  const m = skills(longLibrary);
  const { id } = await session(longLibrary);
  await untilReady(id, m);
  await exec(id, "document.querySelector('[data-testid=skill][data-name=bench-long] [data-testid=skill-row]').click()");
  for (;;) {
    const lines = await exec(id, "return document.querySelector('.cm-content') ? document.querySelectorAll('.cm-line').length : 0");
    if (lines > 0) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  await exec(id, `
    window.__bench = { key: 0, squiggles: 0, count: document.querySelectorAll('.cm-lintRange-error').length };
    document.addEventListener('keydown', () => { window.__bench.key = performance.now(); }, true);
    new MutationObserver(() => {
      const c = document.querySelectorAll('.cm-lintRange-error').length;
      if (c !== window.__bench.count) { window.__bench.count = c; window.__bench.squiggles = performance.now(); }
    }).observe(document.querySelector('.cm-editor'), { childList: true, subtree: true, attributes: true });`);
  const el = await wd('POST', `/session/${id}/element`, { using: 'css selector', value: '.cm-content' });
  const elId = Object.values(el)[0];
  const keys = (text) => wd('POST', `/session/${id}/element/${elId}/value`, { text, value: [...text] });
  // The caret at the end of line 2 (`name: bench-long`): Ctrl+Home, Down, End. An uppercase
  // letter there makes the name invalid (a squiggle); Backspace makes it valid again.
  log('caret');
  await keys('\uE009\uE011');
  await keys('\uE015\uE010');
  const settled = await exec(id, 'return window.__bench.count');
  if (settled !== 0) throw new Error(`the long skill should lint clean, has ${settled} error squiggles`);
  // The first FIRST_KEYS keys after the file opens run while WebKit's JavaScript engine is still
  // compiling the editor's code: they are timed apart (`keystroke_first`), and the 2×RUNS keys
  // after them are the steady typing the target is about.
  for (let i = 0; i < FIRST_KEYS + 2 * runs; i++) {
    const key = i % 2 === 0 ? 'X' : '\uE003'; // X, then Backspace
    const before = await exec(id, 'return window.__bench.count');
    log('key', i);
    await keys(key);
    // Reading the page while it works would slow it down: look only after it has had time.
    const deadline = performance.now() + 5000;
    for (;;) {
      await new Promise((r) => setTimeout(r, 250));
      var b = await exec(id, 'return window.__bench');
      if (b.count !== before && b.squiggles >= b.key) {
        (i < FIRST_KEYS ? out.keystroke_first_ms : out.keystroke_ms).push(b.squiggles - b.key);
        break;
      }
      if (performance.now() > deadline) {
        const line = await exec(id, "return document.querySelectorAll('.cm-line')[1].textContent + ' | ' + document.querySelectorAll('[data-testid=problem]').length");
        throw new Error(`squiggles did not change after key ${i}: line 2 is ${line}, ${JSON.stringify(b)}`);
      }
    }
  }
  // The engine's share: lint_text for the same 500-line text through the app's IPC.
  // The whole file's text (the editor's DOM holds only the lines in view).
  const text = readFileSync(join(longLibrary, 'bench-long', 'SKILL.md'), 'utf8');
  const ipc = await execAsync(id, `
    const [runs, text, done] = arguments;
    (async () => {
      const times = [];
      const path = document.querySelector('[data-testid=editor-path]').textContent;
      for (let i = 0; i < runs; i++) {
        const t = performance.now();
        await window.__TAURI_INTERNALS__.invoke('lint_text', { args: { path, text, agent: 'spec' } });
        times.push(performance.now() - t);
      }
      done(times);
    })().catch(e => done(String(e)));`, [4 * runs, text]);
  if (!Array.isArray(ipc)) throw new Error(`lint_text: ${ipc}`);
  out.lint_ipc_ms = ipc;
  await wd('DELETE', `/session/${id}`);
}

process.stdout.write(
  JSON.stringify({
    start: stats(out.start_ms),
    start_page: stats(out.start_page_ms),
    keystroke_first: stats(out.keystroke_first_ms),
    keystroke: stats(out.keystroke_ms),
    lint_ipc: stats(out.lint_ipc_ms),
  }) + '\n',
);
process.exit(0);
