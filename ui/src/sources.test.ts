import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { clearMocks, mockIPC } from '@tauri-apps/api/mocks';
import type { Studio } from './lib/studio.svelte';
import type { OpenLibrary } from './lib/bindings';
import { $, $$, commonHandlers, type Call, dispatcher, emptyPrompt, type Handler, libraryOf, settle, skill, until, versionOf, mountApp, unmountApp } from './testing/fixtures';

let calls: Call[] = [];
let picked: string | null = null;
let studio: Studio;

const handlers: Handler = {
  ...commonHandlers,
  startup: () => ({ sources: ['/a', '/b', '/c'], agent: 'spec' }),
  agents: () => [{ id: 'spec', kind: 'format', title: 'spec', label: 'spec', source: '', has_prompt: false, has_skill_tool: false }],
  open_library: ({ sources }: OpenLibrary) =>
    libraryOf(
      sources,
      sources.map((s, i) => skill(`skill-${s.slice(1)}`, i)),
    ),
  render_prompt: () => emptyPrompt,
};

function opened(): string[][] {
  return calls.filter((c) => c.cmd === 'open_library').map((c) => (c.args as OpenLibrary).sources);
}

async function start() {
  calls = [];
  const dispatch = dispatcher(handlers, calls);
  mockIPC(
    (cmd, payload) => {
      if (cmd === 'plugin:dialog|open') {
        calls.push({ cmd, args: payload });
        return picked;
      }
      return dispatch(cmd, payload);
    },
    { shouldMockEvents: true },
  );
  studio = await mountApp(3);
  await until(() => $$('[data-testid=source]').length === 3 && $$('[data-testid=skill]').length === 3);
}

const shown = () => $$('[data-testid=source] .path').map((e) => e.title);

beforeEach(() => {
  document.body.innerHTML = '';
});

afterEach(() => {
  unmountApp();
  clearMocks();
});

describe('Sources in the Library pane', () => {
  it('adds a folder picked in the dialog as the highest-priority source', async () => {
    await start();
    picked = '/picked';
    $('[data-testid=source-add]')!.click();
    await until(() => shown().length === 4);
    expect(shown()).toEqual(['/a', '/b', '/c', '/picked']);
    expect(opened().at(-1)).toEqual(['/a', '/b', '/c', '/picked']);
    const dialog = calls.find((c) => c.cmd === 'plugin:dialog|open')!.args as { options: { directory: boolean } };
    expect(dialog.options.directory).toBe(true);
    await until(() => $$('[data-testid=skill]').length === 4);
  });

  it('opens a folder as the library under the agent its project configures', async () => {
    const base = { ...handlers };
    handlers.agents = () => [
      { id: 'spec', kind: 'format', title: 'spec', label: 'spec', source: '', has_prompt: false, has_skill_tool: false },
      { id: 'codex', kind: 'agent', title: 'Codex', label: 'Codex', source: '', has_prompt: false, has_skill_tool: false },
    ];
    handlers.open_library = ({ sources, agent }: OpenLibrary) => ({
      ...libraryOf(
        sources,
        sources.map((s, i) => skill(`skill-${s.slice(1)}`, i)),
      ),
      agent,
      ...(sources[0] === '/configured' ? { configured_agent: 'codex' } : {}),
    });
    onTestFinished(() => {
      Object.assign(handlers, base);
    });
    await start();
    picked = '/plain';
    await studio.library.openFolder();
    expect(studio.library.agent).toBe('spec');
    picked = '/configured';
    await studio.library.openFolder();
    expect(studio.library.agent).toBe('codex');
    const last = calls.filter((c) => c.cmd === 'open_library').at(-1)!.args as OpenLibrary;
    expect(last).toEqual({ sources: ['/configured'], agent: 'codex' });
  });

  it("shows why the library opened without its project's configuration", async () => {
    const base = { ...handlers };
    const error = { code: 'invalid-settings' as const, message: '/broken/skillkit.toml: expected `]`', details: [] };
    handlers.open_library = ({ sources, agent }: OpenLibrary) => ({
      ...libraryOf(
        sources,
        sources.map((s, i) => skill(`skill-${s.slice(1)}`, i)),
      ),
      agent,
      ...(sources[0] === '/broken' ? { config_error: error } : {}),
    });
    onTestFinished(() => {
      Object.assign(handlers, base);
    });
    await start();
    expect($('[data-testid=error]')).toBeNull();
    picked = '/broken';
    await studio.library.openFolder();
    await until(() => $('[data-testid=error]') !== null);
    expect($('[data-testid=error]')!.textContent).toContain('expected `]`');
    expect($('[data-testid=error]')!.textContent).toContain('invalid-settings');
    expect($$('[data-testid=skill]')).toHaveLength(1);
    // A library whose configuration reads clears it.
    picked = '/plain';
    await studio.library.openFolder();
    await until(() => $('[data-testid=error]') === null);
  });

  it('does nothing when the dialog is cancelled or the folder is already a source', async () => {
    await start();
    picked = null;
    await studio.library.addSource();
    picked = '/b';
    await studio.library.addSource();
    expect(opened()).toHaveLength(1);
    expect(studio.notices.status).toContain('already a source');
  });

  it('removes and reorders with the keyboard buttons', async () => {
    await start();
    $$('[data-testid=source-down]')[0].click();
    await until(() => shown()[0] === '/b');
    expect(shown()).toEqual(['/b', '/a', '/c']);
    $$('[data-testid=source-up]')[2].click();
    await until(() => shown()[1] === '/c');
    expect(shown()).toEqual(['/b', '/c', '/a']);
    expect(($$('[data-testid=source-up]')[0] as HTMLButtonElement).disabled).toBe(true);
    expect(($$('[data-testid=source-down]')[2] as HTMLButtonElement).disabled).toBe(true);
    $$('[data-testid=source-remove]')[1].click();
    await until(() => shown().length === 2);
    expect(opened().at(-1)).toEqual(['/b', '/a']);
  });

  it('reorders by dragging a source onto another with the pointer; a click or Escape does not', async () => {
    await start();
    const items = $$('[data-testid=source]');
    // happy-dom does no layout: the point under the pointer is the item the test says.
    let under: Element = items[2];
    const elementFromPoint = document.elementFromPoint;
    document.elementFromPoint = () => under;
    onTestFinished(() => {
      document.elementFromPoint = elementFromPoint;
    });
    const pointer = (el: Element, type: string, x: number, y: number) =>
      el.dispatchEvent(new PointerEvent(type, { bubbles: true, pointerId: 1, button: 0, clientX: x, clientY: y }));

    // A press, a move of under 4 pixels and a release over another source is a click: nothing moves.
    pointer(items[2], 'pointerdown', 10, 50);
    under = items[0];
    pointer(items[2], 'pointermove', 12, 48);
    pointer(items[2], 'pointerup', 12, 48);
    expect(items[0].classList.contains('over')).toBe(false);
    // A drag cancelled with Escape: nothing moves.
    under = items[2];
    pointer(items[2], 'pointerdown', 10, 50);
    under = items[0];
    pointer(items[2], 'pointermove', 10, 10);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    pointer(items[2], 'pointerup', 10, 10);
    await settle();
    expect(shown()).toEqual(['/a', '/b', '/c']);

    // Source 3 dragged onto source 1 goes first.
    under = items[2];
    pointer(items[2], 'pointerdown', 10, 50);
    under = items[0];
    pointer(items[2], 'pointermove', 10, 30);
    await until(() => items[0].classList.contains('over'));
    pointer(items[2], 'pointermove', 10, 10);
    pointer(items[2], 'pointerup', 10, 10);
    await until(() => shown()[0] === '/c');
    expect(shown()).toEqual(['/c', '/a', '/b']);
  });

  it('closes a clean file whose source was removed', async () => {
    await start();
    handlers.read_file = ({ path }) => ({ path, text: 'x', version: versionOf('x') });
    await studio.editing.open('/lib/s2/skill-c/SKILL.md');
    expect(studio.editing.file).not.toBeNull();
    await studio.library.removeSource(2);
    expect(studio.editing.file).toBeNull();
  });
});
