import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import Problems from './Problems.svelte';
import { clearMocks, mockIPC } from '@tauri-apps/api/mocks';
import { EditorView } from '@codemirror/view';
import type { Studio } from '../lib/studio.svelte';
import type { LibraryView } from '../lib/bindings';
import { $, $$, calls, change, commonHandlers, diagnostic, route, settle, skill, until, versionOf, type Handler, mountApp, unmountApp } from '../testing/fixtures';

// Under `spec` the library has an error, a warning and a note; under `claude-code` only the warning.
function library(agent: string): LibraryView {
  const alpha = [
    {
      ...diagnostic('SK201', 'name-invalid', 'error', 2, 7, 13),
      message: '`name` `Alpha` must be lowercase, and this message goes on long enough to need more than one line in a narrow pane',
      help: 'rename the skill (and its folder) to `alpha`',
    },
    diagnostic('SK310', 'description-short', 'warning', 3, 1, 5),
  ];
  const beta = [diagnostic('SK401', 'body-long', 'info', 9, 1, 2)];
  return {
    agent,
    sources: [{ path: '/lib/s0', root: '/lib/s0', exists: true }],
    skills: [
      skill('alpha', 0, { diagnostics: agent === 'spec' ? alpha : [alpha[1]] }),
      skill('beta', 0, { diagnostics: agent === 'spec' ? beta : [] }),
    ],
    issues: [],
  };
}

const handlers: Handler = {
  ...commonHandlers,
  startup: () => ({ sources: ['/lib/s0'], agent: 'spec' }),
  agents: () => [
    { id: 'spec', kind: 'format', title: 'spec', label: 'spec', source: '', has_prompt: false, has_skill_tool: false },
    { id: 'claude-code', kind: 'agent', title: 'Claude Code', label: 'Claude Code 2.1', source: '', has_prompt: true, has_skill_tool: true },
    { id: 'none', kind: 'agent', title: 'None', label: 'Quiet Agent 1.0', source: '', has_prompt: false, has_skill_tool: false },
  ],
  open_library: ({ agent }) => (agent === 'none' ? { ...library(agent), skills: [skill('alpha', 0), skill('beta', 0)] } : library(agent)),
  render_prompt: () => {
    throw { code: 'no-prompt', message: 'none', details: [] };
  },
  read_file: ({ path }) => ({ path, text: '---\nname: Alpha\ndescription: x\n---\n', version: versionOf('---\nname: Alpha\ndescription: x\n---\n') }),
  // `name: alpha` fixes the text (the name's error and the warning are gone).
  lint_text: ({ agent, text }) => ({ diagnostics: text.includes('name: alpha') ? [] : library(agent).skills[0].diagnostics }),
};

let studio: Studio;

async function start() {
  mockIPC(route(handlers), { shouldMockEvents: true });
  // happy-dom fires `selectionchange` synchronously, which CodeMirror cannot take while it
  // redraws a focused editor (browsers fire it later): a jump asks for the editor's focus
  // (`studio.focus`), the editor's DOM focus is not modelled here.
  vi.spyOn(EditorView.prototype, 'focus').mockImplementation(() => {});
  studio = await mountApp(2);
  await until(() => $$('[data-testid=problem]').length === 3);
}

const codes = () => $$('[data-testid=problem]').map((e) => e.dataset.code);

afterEach(() => {
  unmountApp();
  vi.restoreAllMocks();
  clearMocks();
});

describe('Problems pane', () => {
  it('lists every diagnostic of the library with counts per severity', async () => {
    await start();
    expect(codes()).toEqual(['SK201', 'SK310', 'SK401']);
    expect($('[data-testid=count-error]')?.textContent).toBe('1 error');
    expect($('[data-testid=count-warning]')?.textContent).toBe('1 warning');
    expect($('[data-testid=count-info]')?.textContent).toBe('1 info');
    expect($$('[data-testid=problem]')[2].textContent).toContain('beta:9:1');
  });

  it('says it counts the library, the status bar the open file, and the Library badges agree with both', async () => {
    await start();
    expect($('[data-testid=problems-scope]')?.textContent).toBe('in the library');
    await studio.editing.open('/lib/s0/alpha/SKILL.md');
    await until(() => $('[data-testid=lint-state]')?.textContent?.includes('This file') ?? false);
    const state = $('[data-testid=lint-state]')!;
    expect(state.dataset.scope).toBe('file');
    expect(state.textContent?.replace(/\s+/g, ' ').trim()).toBe('This file: 1 error, 1 warning');
    // The open file's badge counts its live text, as the status bar and the Problems pane do.
    const alpha = $('[data-testid=skill][data-name=alpha]')!;
    expect(alpha.querySelector('[data-testid=skill-errors]')?.textContent).toBe('1');
    expect(alpha.querySelector('[data-testid=skill-warnings]')?.textContent).toBe('1');
    // The file's text is fixed: all three counts follow it before any save.
    const view = EditorView.findFromDOM($('.cm-editor')!)!;
    const at = view.state.doc.toString().indexOf('Alpha');
    view.dispatch({ changes: { from: at, to: at + 5, insert: 'alpha' } });
    await until(() => $('[data-testid=lint-state]')?.textContent?.includes('No problems in this file') ?? false);
    expect(alpha.querySelector('[data-testid=skill-errors]')).toBeNull();
    expect($('[data-testid=count-error]')?.textContent).toBe('0 errors');
  });

  it('filters by severity and by rule', async () => {
    await start();
    change($('[data-testid=filter-error]'), false);
    await settle();
    expect(codes()).toEqual(['SK310', 'SK401']);
    change($('[data-testid=filter-info]'), false);
    await settle();
    expect(codes()).toEqual(['SK310']);
    change($('[data-testid=filter-error]'), true);
    change($('[data-testid=filter-info]'), true);
    await settle();
    const options = [...($('[data-testid=filter-rule]') as HTMLSelectElement).options].map((o) => o.value);
    expect(options).toEqual(['', 'name-invalid', 'description-short', 'body-long']);
    change($('[data-testid=filter-rule]'), 'body-long');
    await settle();
    expect(codes()).toEqual(['SK401']);
    expect($('[data-testid=problems-shown]')?.textContent).toBe('1 of 3');
  });

  it('has no agent picker of its own: it names the window\'s agent and follows it', async () => {
    await start();
    expect($('[data-testid=filter-agent]')).toBeNull();
    expect($$('.problems select').map((e) => e.dataset.testid)).toEqual(['filter-rule']);
    expect($('[data-testid=problems-agent]')?.textContent).toBe('under spec');

    await studio.setAgent('claude-code');
    await until(() => codes().length === 1);
    expect(codes()).toEqual(['SK310']);
    expect(calls.filter((c) => c.cmd === 'open_library').at(-1)?.args).toEqual({ sources: ['/lib/s0'], agent: 'claude-code' });
    expect($('[data-testid=problems-agent]')?.textContent).toBe('under Claude Code 2.1');
    expect($('[data-testid=problems]')?.getAttribute('aria-label')).toBe('Problems under Claude Code 2.1');

    // No problems: said in plain words, under the agent's plain name (the pane on its own, as
    // the window may fold it away when empty).
    await studio.setAgent('none');
    await until(() => studio.library.problems.length === 0);
    const target = document.createElement('div');
    document.body.appendChild(target);
    const pane = mount(Problems, { target, props: { studio } });
    flushSync();
    expect(target.querySelector('[data-testid=no-problems]')?.textContent?.trim()).toBe('No problems under Quiet Agent 1.0.');
    expect(target.querySelector('[data-testid=count-error]')?.textContent).toBe('0 errors');
    unmount(pane);
  });

  it('shows the whole message, code as code, and the help on demand (click, or → and ←)', async () => {
    await start();
    const row = $$('[data-testid=problem]')[0];
    const msg = row.querySelector('.msg')!;
    // The whole message, not cut (the row wraps: look.test.ts): its backticks are inline code.
    expect(msg.textContent).toBe('name Alpha must be lowercase, and this message goes on long enough to need more than one line in a narrow pane');
    expect([...msg.querySelectorAll('code')].map((c) => c.textContent)).toEqual(['name', 'Alpha']);
    expect(row.title).toBe('');

    // The help, hidden at first, shows under the row with its own toggle.
    expect($('[data-testid=problem-detail]')).toBeNull();
    const more = row.parentElement!.querySelector<HTMLButtonElement>('[data-testid=problem-more]')!;
    expect(more.getAttribute('aria-expanded')).toBe('false');
    expect(more.getAttribute('aria-label')).toBe('Show help for SK201 in alpha');
    more.click();
    await settle();
    const detail = $('[data-testid=problem-detail]')!;
    expect(detail.querySelector('.help')?.textContent).toBe('rename the skill (and its folder) to alpha');
    expect(detail.querySelector('.help code')?.textContent).toBe('alpha');
    expect(detail.textContent).toContain('docs/rules/name-invalid.md');
    expect(more.getAttribute('aria-expanded')).toBe('true');
    expect(more.getAttribute('aria-controls')).toBe(detail.id);
    expect(row.getAttribute('aria-describedby')).toBe(detail.id);
    // Opening the help does not jump to the editor.
    expect(studio.editing.jump).toBeNull();

    // By keyboard, on the row: ← hides it, → shows it again.
    row.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true }));
    await settle();
    expect($('[data-testid=problem-detail]')).toBeNull();
    row.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
    await settle();
    expect($('[data-testid=problem-detail]')).not.toBeNull();
    // Only one id each.
    const ids = $$('[id]').map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('moves between rows with the arrows, skipping the help toggles', async () => {
    await start();
    const rows = $$('[data-testid=problem]');
    rows[0].focus();
    rows[0].dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }));
    expect(document.activeElement).toBe(rows[1]);
    rows[1].dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true }));
    expect(document.activeElement).toBe(rows[2]);
  });

  it('jumps to the exact span on click and on Enter', async () => {
    await start();
    $$('[data-testid=problem]')[0].click();
    await until(() => studio.editing.jump !== null);
    expect(studio.editing.file?.path).toBe('/lib/s0/alpha/SKILL.md');
    expect(studio.editing.jump).toMatchObject({ line: 2, columnUtf16: 7, end: { line: 2, columnUtf16: 13 } });
    expect(studio.focus.pane).toBe('editor');

    const beta = $$('[data-testid=problem]').find((e) => e.dataset.code === 'SK401')!;
    beta.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    await until(() => studio.editing.jump?.line === 9);
    expect(studio.editing.file?.path).toBe('/lib/s0/beta/SKILL.md');
    expect(studio.editing.jump?.seq).toBe(2);
  });
});
