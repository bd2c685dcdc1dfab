// The command palette (Ctrl+Shift+P, F1): every action with its key, fuzzy-filtered, driven by
// the keyboard; the keys it lists run the same actions, none of them one VS Code or Zed binds to
// something else; "go to skill" (Ctrl+P); the agent picker's groups and problem counts.
import { afterEach, describe, expect, it } from 'vitest';
import { clearMocks, mockIPC } from '@tauri-apps/api/mocks';
import type { AgentInfo } from './lib/bindings';
import { fuzzy, rank } from './lib/fuzzy';
import { $, $$, diagnostic, route, mountApp, oneSource, settle, skill, unmountApp, until } from './testing/fixtures';

afterEach(() => {
  unmountApp();
  clearMocks();
});

const press = (init: KeyboardEventInit, target: EventTarget = window) =>
  target.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init }));

const agents: AgentInfo[] = [
  { id: 'spec', kind: 'format', title: 'Agent Skills specification', label: 'Agent Skills spec', source: 'spec', has_prompt: false, has_skill_tool: false },
  { id: 'claude-code', kind: 'agent', title: 'Claude Code', label: 'Claude Code 2.1', source: 'cc', has_prompt: true, has_skill_tool: true },
  { id: 'harness9', kind: 'test-profile', title: 'harness9 (seed design)', label: 'harness9 (seed)', source: 'seed', has_prompt: true, has_skill_tool: true },
  { id: 'codex', kind: 'agent', title: 'OpenAI Codex CLI', label: 'Codex CLI 0.171', source: 'codex', has_prompt: true, has_skill_tool: true },
];

function host(extra = {}) {
  return route(
    oneSource([skill('pdf-tables', 0), skill('commit-message', 0), skill('release-notes', 0)], () => '---\nname: x\n---\n', {
      agents: () => agents,
      // The open skill has an error under Codex only, and a warning under harness9.
      lint_text: ({ agent }) => ({
        diagnostics:
          agent === 'codex' ? [diagnostic('SK101', 'name-format', 'error', 2, 7, 8)] : agent === 'harness9' ? [diagnostic('SK300', 'x', 'warning', 1, 1, 2)] : [],
      }),
      ...extra,
    }),
  );
}

describe('fuzzy matching', () => {
  it('matches letters in order, prefers them together and at word starts', () => {
    expect(fuzzy('cm', 'commit-message')?.at).toEqual([0, 7]);
    expect(fuzzy('xyz', 'commit-message')).toBeNull();
    expect(rank(['release-notes', 'pdf-tables', 'commit-message'], 'pt', (s) => s).map((r) => r.item)).toEqual(['pdf-tables']);
    // A word start beats a letter inside a word.
    expect(rank(['unprevented', 'the-preview'], 'prev', (s) => s)[0].item).toBe('the-preview');
    expect(rank(['a-tops', 'tops'], 'tops', (s) => s)[0].item).toBe('tops');
  });
});

describe('command palette', () => {
  it('lists every action with its key, filters as typed, runs the one picked with Enter', async () => {
    mockIPC(host(), { shouldMockEvents: true });
    const studio = await mountApp(3);
    press({ key: 'P', ctrlKey: true, shiftKey: true });
    await until(() => $('[data-testid=palette]') !== null);
    expect(document.activeElement).toBe($('[data-testid=palette-input]'));
    const rows = $$('[data-testid=palette-item]');
    const keys = Object.fromEntries(rows.map((r) => [r.querySelector('.label')!.textContent, r.querySelector('kbd')?.textContent ?? '']));
    expect(keys).toMatchObject({
      'Show all commands': 'Ctrl+Shift+P',
      'Go to skill…': 'Ctrl+P',
      'Go to Library': 'Alt+1',
      'Go to Matrix': 'Alt+7',
      'Save the file': 'Ctrl+S',
      'Hide the Library': 'Ctrl+B',
      'Hide Problems': 'Ctrl+J',
      'Hide the side panel': 'Ctrl+Alt+B',
      'Show the Markdown preview': 'Ctrl+K V',
      'Switch light and dark theme': 'Ctrl+K Ctrl+T',
      'Choose the agent…': '',
    });
    // No key listed twice, and none a VS Code or Zed default for something else.
    const listed = rows.map((r) => r.querySelector('kbd')?.textContent).filter(Boolean);
    expect(new Set(listed).size).toBe(listed.length);
    for (const clash of ['Ctrl+Shift+F', 'Ctrl+Shift+L', 'Ctrl+K Ctrl+F', 'Ctrl+Shift+E']) expect(listed).not.toContain(clash);

    const input = $('[data-testid=palette-input]') as HTMLInputElement;
    input.value = 'mkdn prev';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await settle();
    expect($$('[data-testid=palette-item]').map((r) => r.querySelector('.label')!.textContent)).toEqual(['Show the Markdown preview']);
    expect(studio.preview.show).toBe(false);
    press({ key: 'Enter' }, input);
    await until(() => $('[data-testid=palette]') === null && studio.preview.show);

    // Arrows move, Escape closes without running anything.
    press({ key: 'F1' });
    await until(() => $('[data-testid=palette]') !== null);
    const first = $('[data-testid=palette-input]')!.getAttribute('aria-activedescendant');
    press({ key: 'ArrowDown' }, $('[data-testid=palette-input]')!);
    await settle();
    expect($('[data-testid=palette-input]')!.getAttribute('aria-activedescendant')).not.toBe(first);
    press({ key: 'Escape' }, $('[data-testid=palette-input]')!);
    await until(() => $('[data-testid=palette]') === null);
    expect(studio.preview.show).toBe(true);
  });

  it('runs the keys it lists: chords after Ctrl+K, Ctrl+Alt+F for the form', async () => {
    mockIPC(host(), { shouldMockEvents: true });
    const studio = await mountApp(3);
    const form = studio.preview.showForm;
    press({ key: 'f', ctrlKey: true, altKey: true });
    expect(studio.preview.showForm).toBe(!form);
    // Ctrl+Shift+F and Ctrl+Shift+L are the editors' own (search, select all matches): nothing here.
    press({ key: 'F', ctrlKey: true, shiftKey: true });
    press({ key: 'L', ctrlKey: true, shiftKey: true });
    expect(studio.preview.showForm).toBe(!form);
    expect(studio.layout.theme).toBe('system');
    press({ key: 'k', ctrlKey: true });
    expect(studio.notices.status).toContain('waiting for a second key');
    press({ key: 't', ctrlKey: true });
    expect(['light', 'dark']).toContain(studio.layout.theme);
    press({ key: 'k', ctrlKey: true });
    press({ key: 'q' });
    expect(studio.notices.status).toBe('Ctrl+K Q is not a command');
    expect(studio.preview.show).toBe(false);
  });
});

describe('go to skill', () => {
  it('opens the skill picked by a fuzzy name on Ctrl+P', async () => {
    mockIPC(host(), { shouldMockEvents: true });
    const studio = await mountApp(3);
    press({ key: 'p', ctrlKey: true });
    await until(() => $('[data-testid=goto]') !== null);
    const input = $('[data-testid=goto-input]') as HTMLInputElement;
    input.value = 'cmsg';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await settle();
    expect($$('[data-testid=goto-item]').map((r) => r.dataset.id)).toEqual(['/lib/s0/commit-message/SKILL.md']);
    press({ key: 'Enter' }, input);
    await until(() => studio.editing.file?.path === '/lib/s0/commit-message/SKILL.md');
    expect($('[data-testid=goto]')).toBeNull();
  });
});

describe('agent picker', () => {
  it('groups agents, formats and test profiles by plain name, with the open skill’s problems under each', async () => {
    mockIPC(host(), { shouldMockEvents: true });
    const studio = await mountApp(3);
    await studio.editing.open('/lib/s0/pdf-tables/SKILL.md');
    $('[data-testid=agent]')!.click();
    await until(() => $('[data-testid=agent-pick-errors]') !== null);
    const groups = $$('[data-testid=agent-pick] [role=group]').map((g) => [
      g.getAttribute('aria-label'),
      [...g.querySelectorAll('[role=option]')].map((o) => o.querySelector('.label')!.textContent),
    ]);
    expect(groups).toEqual([
      ['Agents', ['Claude Code 2.1', 'Codex CLI 0.171']],
      ['Formats', ['Agent Skills spec']],
      ['Test profiles (seed designs)', ['harness9 (seed)']],
    ]);
    const codex = $('[data-testid=agent-pick-item][data-id=codex]')!;
    expect(codex.querySelector('.badge.error')?.textContent).toBe('1');
    expect($('[data-testid=agent-pick-item][data-id=harness9] .badge.warning')?.textContent).toBe('1');
    expect($('[data-testid=agent-pick-item][data-id=claude-code] .badge')).toBeNull();
    // The current one is marked and active; typing narrows by name or id; Enter picks.
    expect($('[data-testid=agent-pick-item][data-id=spec]')!.getAttribute('aria-selected')).toBe('true');
    const input = $('[data-testid=agent-pick-input]') as HTMLInputElement;
    input.value = 'codx';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await settle();
    expect($$('[data-testid=agent-pick-item]').map((o) => o.dataset.id)).toEqual(['codex']);
    press({ key: 'Enter' }, input);
    await until(() => studio.library.agent === 'codex');
    expect($('[data-testid=agent]')!.textContent).toContain('Codex CLI 0.171');
  });
});
