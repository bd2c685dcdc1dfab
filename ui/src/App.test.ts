import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mount, unmount } from 'svelte';
import { clearMocks, mockIPC } from '@tauri-apps/api/mocks';
import App from './App.svelte';
import { Studio } from './lib/studio.svelte';
import type { Diagnostic, LibraryView, PromptView, SkillEntry } from './lib/bindings';
import { $, $$, calls, emptyUiState, route, settle, until, versionOf, type Handler } from './testing/fixtures';

const pos = (line: number, column: number) => ({ line, column, column_utf16: column });

function diagnostic(code: string, line: number, from: number, to: number): Diagnostic {
  return {
    code,
    rule: 'name-invalid',
    severity: 'error',
    message: `problem ${code}`,
    span: { start: 0, end: 1 },
    start: pos(line, from),
    end: pos(line, to),
    labels: [],
    help: 'use lowercase letters',
    docs: 'docs/rules/name-invalid.md',
    fix: null,
  };
}

function skill(name: string, source: number, extra: Partial<SkillEntry> = {}): SkillEntry {
  return {
    source,
    name,
    dir: `/lib/s${source}/${name}`,
    path: `/lib/s${source}/${name}/SKILL.md`,
    errors: 0,
    warnings: 0,
    infos: 0,
    hidden_by: null,
    resources: [{ path: 'scripts/run.py', kind: 'script', size: 10, discovered_by: ['deepagents-v2'] }],
    diagnostics: [],
    ...extra,
  };
}

const library: LibraryView = {
  agent: 'spec',
  sources: [
    { path: '/lib/s0', root: '/lib/s0', exists: true },
    { path: '/lib/s1', root: '/lib/s1', exists: true },
  ],
  skills: [
    skill('pdf-tables', 0, { hidden_by: { name: 'pdf-tables', source: 1, dir: '/lib/s1/pdf-tables' } }),
    skill('broken', 0, { errors: 1, diagnostics: [diagnostic('SK201', 2, 7, 13)] }),
    skill('pdf-tables', 1),
  ],
  issues: [],
};

const prompt: PromptView = {
  agent: 'claude-code',
  source: 'Claude Code',
  placement: 'system-message',
  placement_detail: 'a system message',
  text: '- pdf-tables: Extract tables',
  failure: null,
  skills: [
    {
      name: 'pdf-tables',
      folder: 'pdf-tables',
      path: '',
      source: 1,
      decision: 'full',
      reason: null,
      range: { start: 0, end: 28 },
      chars: 28,
      tokens: 7,
    },
    { name: 'broken', folder: 'broken', path: '', source: 0, decision: 'invalid', reason: 'bad name', range: null, chars: 0, tokens: 0 },
  ],
  warnings: [],
  budget: null,
  encoding: 'o200k_base',
  estimate: true,
  bytes: 28,
  chars: 28,
  tokens: 7,
  context_window: 1000000,
  percent_of_context: 0.0007,
  settings: [],
};

const defaults: Handler = {
  startup: () => ({ sources: ['/lib/s0', '/lib/s1'], agent: 'spec' }),
  agents: () => [
    { id: 'spec', kind: 'format', title: 'spec', label: 'spec', source: '', has_prompt: false, has_skill_tool: false },
    { id: 'claude-code', kind: 'agent', title: 'Claude Code', label: 'Claude Code', source: '', has_prompt: true, has_skill_tool: true },
  ],
  open_library: () => library,
  render_prompt: () => prompt,
  read_file: ({ path }) => ({ path, text: '---\nname: Broken\n---\nbody\n', version: versionOf('---\nname: Broken\n---\nbody\n') }),
  lint_text: ({ text }) => ({ diagnostics: text.includes('Broken') ? [diagnostic('SK201', 2, 7, 13)] : [] }),
  save_file: ({ path, text }) => ({ path, bytes: text.length, version: versionOf(text) }),
  frontmatter_form: () => ({ fields: [], limits: [] }),
  drafts: () => [],
  save_draft: () => null,
  discard_draft: () => null,
  // The window's remembered layout: none kept, and what the app keeps is taken without a word.
  ui_state: () => emptyUiState(),
  remember_ui_state: () => null,
};

let app: ReturnType<typeof mount> | null = null;
let studio: Studio;

function start(handlers: Handler = {}) {
  mockIPC(route({ ...defaults, ...handlers }), { shouldMockEvents: true });
  studio = new Studio();
  app = mount(App, { target: document.body, props: { studio } });
}

beforeEach(() => {
  document.body.innerHTML = '';
});

afterEach(() => {
  if (app) unmount(app);
  app = null;
  clearMocks();
});

describe('Library pane', () => {
  it('lists the sources in order with each skill, its badges and what hides it', async () => {
    start();
    await until(() => $$('[data-testid=skill]').length === 3);
    const names = $$('[data-testid=skill]').map((e) => e.dataset.name);
    expect(names).toEqual(['pdf-tables', 'broken', 'pdf-tables']);
    expect($('[data-testid=hidden-by]')?.textContent).toContain('hidden by pdf-tables in source 2');
    expect($$('[data-testid=skill]')[1].querySelector('.badge.error')?.textContent).toBe('1');
    expect(calls.find((c) => c.cmd === 'open_library')?.args).toEqual({ sources: ['/lib/s0', '/lib/s1'], agent: 'spec' });
  });

  it('shows a typed host error with its code', async () => {
    start({
      open_library: () => {
        throw { code: 'unknown-agent', message: 'unknown agent `x`', details: [] };
      },
    });
    await until(() => $('[data-testid=error]') !== null);
    expect($('[data-testid=error]')?.textContent).toContain('unknown-agent');
  });

  it('opens the selected skill with the keyboard', async () => {
    start();
    await until(() => $$('[data-testid=skill]').length === 3);
    const list = $('[data-testid=library]')!;
    // The first source's row, its first skill, then the second.
    list.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }));
    list.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }));
    list.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }));
    await settle();
    list.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    await until(() => studio.editing.file !== null);
    expect(studio.editing.file?.path).toBe('/lib/s0/broken/SKILL.md');
  });
});

describe('Editor and Problems panes', () => {
  it('lints the text as typed and lists the live diagnostics', async () => {
    start();
    await until(() => $$('[data-testid=skill]').length === 3);
    await studio.editing.open('/lib/s0/broken/SKILL.md');
    await until(() => $('.cm-content') !== null);
    expect($('.cm-content')?.textContent).toContain('name: Broken');
    expect($$('[data-testid=problem]').map((e) => e.dataset.code)).toEqual(['SK201']);
    // The editor lints its text once it opens: wait for that, so it cannot land after ours.
    await until(() => calls.some((c) => c.cmd === 'lint_text'));

    await studio.editing.lint('---\nname: broken\n---\nbody\n');
    await settle();
    expect($$('[data-testid=problem]')).toHaveLength(0);
    expect(calls.filter((c) => c.cmd === 'lint_text').at(-1)?.args).toEqual({
      path: '/lib/s0/broken/SKILL.md',
      text: '---\nname: broken\n---\nbody\n',
      agent: 'spec',
    });
    expect($('[data-testid=dirty]')).not.toBeNull();
  });

  it('saves the open file through the host', async () => {
    start();
    await until(() => $$('[data-testid=skill]').length === 3);
    await studio.editing.open('/lib/s0/broken/SKILL.md');
    await studio.editing.lint('changed');
    await studio.editing.save();
    // Saved over the version read when the file opened.
    expect(calls.find((c) => c.cmd === 'save_file')?.args).toEqual({
      path: '/lib/s0/broken/SKILL.md',
      text: 'changed',
      base: versionOf('---\nname: Broken\n---\nbody\n'),
    });
    expect(studio.editing.dirty).toBe(false);
  });
});

describe('Prompt pane', () => {
  it('shows the exact text, the counts and each skill decision', async () => {
    // The pane shows the window's agent's prompt (the spec profile has none).
    start({ startup: () => ({ sources: ['/lib/s0', '/lib/s1'], agent: 'claude-code' }) });
    await until(() => $('[data-testid=prompt-text]') !== null);
    expect($('[data-testid=prompt-text]')?.textContent).toBe('- pdf-tables: Extract tables');
    expect($('[data-testid=prompt-counts]')?.textContent).toContain('28 chars');
    const rows = $$('[data-testid=prompt-skills] tbody tr').map((r) => r.textContent);
    expect(rows[1]).toContain('invalid');
    expect(calls.find((c) => c.cmd === 'render_prompt')?.args).toMatchObject({ agent: 'claude-code', loaded: [] });
  });
});
