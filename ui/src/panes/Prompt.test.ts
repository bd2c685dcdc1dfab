import { afterEach, describe, expect, it } from 'vitest';
import { clearMocks, mockIPC } from '@tauri-apps/api/mocks';
import type { Studio } from '../lib/studio.svelte';
import type { PromptSkill, PromptView, RenderPrompt } from '../lib/bindings';
import { $, $$, calls, change, commonHandlers, route, settle, skill, until, versionOf, type Handler, mountApp, unmountApp } from '../testing/fixtures';


function ps(name: string, decision: PromptSkill['decision'], range: [number, number] | null, reason: string | null = null): PromptSkill {
  const chars = range ? range[1] - range[0] : 0;
  return { name, folder: name, path: '', source: 0, decision, reason, range: range && { start: range[0], end: range[1] }, chars, tokens: Math.ceil(chars / 4) };
}

// "é" is two bytes in UTF-8: the mark must still land on `beta` exactly.
const TEXT = '- alpha: é first\n- beta: second\n- gamma';
function render(args: RenderPrompt): PromptView {
  const other = args.agent === 'codex';
  const text = other ? 'codex listing' : TEXT;
  return {
    agent: args.agent,
    source: '',
    placement: 'system-message',
    placement_detail: 'a system message',
    text,
    failure: null,
    skills: other
      ? [ps('alpha', 'full', [0, 13])]
      : [
          ps('alpha', 'full', [0, 17]),
          ps('beta', 'full', [18, 32]),
          ps('gamma', 'name-only', [33, 40], 'over budget: listed by name only'),
          ps('delta', 'dropped', null, 'the budget is spent'),
          ps('broken', 'invalid', null, 'name is missing'),
        ],
    warnings: [],
    budget: other ? null : { limit: args.char_budget ?? 30, unit: 'chars', needed: 60, rule: '1% of the context window' },
    encoding: 'o200k_base',
    estimate: false,
    bytes: new TextEncoder().encode(text).length,
    chars: [...text].length,
    tokens: 9,
    context_window: args.context_window ?? 200000,
    percent_of_context: 0.01,
  };
}

const handlers: Handler = {
  ...commonHandlers,
  startup: () => ({ sources: ['/lib/s0'], agent: 'spec' }),
  agents: () => [
    { id: 'spec', title: 'spec', label: 'spec', source: '', has_prompt: false, has_skill_tool: false },
    { id: 'claude-code', title: 'Claude Code', label: 'Claude Code', source: '', has_prompt: true, has_skill_tool: true },
    { id: 'codex', title: 'Codex', label: 'Codex', source: '', has_prompt: true, has_skill_tool: true },
  ],
  open_library: () => ({
    agent: 'spec',
    sources: [{ path: '/lib/s0', root: '/lib/s0', exists: true }],
    skills: [skill('alpha', 0), skill('beta', 0)],
    issues: [],
  }),
  render_prompt: render,
  read_file: ({ path }) => ({ path, text: '---\nname: beta\n---\n', version: versionOf('---\nname: beta\n---\n') }),
  lint_text: () => ({ diagnostics: [] }),
};

let studio: Studio;

async function start() {
  mockIPC(route(handlers), { shouldMockEvents: true });
  studio = await mountApp(2);
  await until(() => $('[data-testid=prompt-text]') !== null);
}

afterEach(() => {
  unmountApp();
  clearMocks();
});

describe('Prompt pane', () => {
  it('shows the exact text and counts for the picked agent', async () => {
    await start();
    expect($('[data-testid=prompt-text]')?.textContent).toBe(TEXT);
    expect($('[data-testid=prompt-counts]')?.textContent).toContain(`${[...TEXT].length} chars`);
    expect($('[data-testid=prompt-counts]')?.textContent).toContain('9 tokens');
    change($('[data-testid=prompt-agent]'), 'codex');
    await until(() => $('[data-testid=prompt-text]')?.textContent === 'codex listing');
    expect(calls.filter((c) => c.cmd === 'render_prompt').at(-1)?.args).toMatchObject({ agent: 'codex' });
  });

  it('draws the budget bar from the engine decisions, with the reasons', async () => {
    await start();
    const segs = $$('[data-testid=seg]').map((s) => s.dataset.decision);
    expect(segs).toEqual(['full', 'full', 'name-only']);
    expect($('[data-testid=tally]')?.textContent).toMatch(/2 listed in full.*1 name only.*1 dropped.*1 invalid/);
    expect($('[data-testid=budget]')?.textContent).toContain('budget 30 chars, needed 60 — 1% of the context window');
    const rows = $$('[data-testid=prompt-skills] tbody tr');
    expect(rows.find((r) => r.dataset.name === 'delta')?.textContent).toContain('the budget is spent');
    expect(rows.find((r) => r.dataset.name === 'gamma')?.textContent).toContain('name only');
  });

  it('sends the context window and the budget to the engine', async () => {
    await start();
    change($('[data-testid=context-window]'), '32000');
    await settle();
    change($('[data-testid=char-budget]'), '500');
    await until(() => $('[data-testid=budget]')?.textContent?.includes('budget 500') ?? false);
    expect(calls.filter((c) => c.cmd === 'render_prompt').at(-1)?.args).toEqual({
      sources: ['/lib/s0'],
      agent: 'claude-code',
      context_window: 32000,
      char_budget: 500,
      loaded: [],
    });
    change($('[data-testid=char-budget]'), 'lots');
    await settle();
    expect(calls.filter((c) => c.cmd === 'render_prompt').at(-1)?.args).toMatchObject({ char_budget: null });
  });

  it('marks the byte range of the skill open in the editor, and a picked one', async () => {
    await start();
    expect($('[data-testid=prompt-mark]')).toBeNull();
    await studio.openSkill('/lib/s0/beta/SKILL.md');
    await until(() => $('[data-testid=prompt-mark]') !== null);
    expect($('[data-testid=prompt-mark]')?.textContent).toBe('- beta: second');
    $$('[data-testid=seg]')[2].click();
    await settle();
    expect($('[data-testid=prompt-mark]')?.textContent).toBe('- gamma');
  });

  it('renders a second agent side by side with the same settings', async () => {
    await start();
    change($('[data-testid=compare-agent]'), 'codex');
    await until(() => $('[data-testid=prompt-view-compare]') !== null);
    expect($('[data-testid=prompt-view-main]')?.dataset.agent).toBe('claude-code');
    expect($('[data-testid=prompt-view-compare]')?.dataset.agent).toBe('codex');
    expect($$('[data-testid=prompt-text]').map((e) => e.textContent)).toEqual([TEXT, 'codex listing']);
    change($('[data-testid=compare-agent]'), '');
    await until(() => $('[data-testid=prompt-view-compare]') === null);
  });

  it('copies the exact text', async () => {
    await start();
    let copied = '';
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: async (t: string) => void (copied = t) }, configurable: true });
    $('[data-testid=copy]')!.click();
    await until(() => copied !== '');
    expect(copied).toBe(TEXT);
  });
});
