import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mount, unmount } from 'svelte';
import { clearMocks, mockIPC } from '@tauri-apps/api/mocks';
import App from './App.svelte';
import { Studio } from './lib/studio.svelte';
import type { OpenLibrary } from './lib/bindings';
import { $, $$, commonHandlers, type Call, dispatcher, emptyPrompt, type Handler, libraryOf, skill, until } from './testing/fixtures';

let calls: Call[] = [];
let picked: string | null = null;
let app: ReturnType<typeof mount> | null = null;
let studio: Studio;

const handlers: Handler = {
  ...commonHandlers,
  startup: () => ({ sources: ['/a', '/b', '/c'], agent: 'spec' }),
  agents: () => [{ id: 'spec', title: 'spec', source: '', has_prompt: false }],
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
  studio = new Studio();
  app = mount(App, { target: document.body, props: { studio } });
  await until(() => $$('[data-testid=source]').length === 3 && $$('[data-testid=skill]').length === 3);
}

const shown = () => $$('[data-testid=source] .path').map((e) => e.title);

beforeEach(() => {
  document.body.innerHTML = '';
});

afterEach(() => {
  if (app) unmount(app);
  app = null;
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

  it('does nothing when the dialog is cancelled or the folder is already a source', async () => {
    await start();
    picked = null;
    await studio.addSource();
    picked = '/b';
    await studio.addSource();
    expect(opened()).toHaveLength(1);
    expect(studio.status).toContain('already a source');
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

  it('reorders by dragging a source onto another', async () => {
    await start();
    const items = $$('[data-testid=source]');
    items[2].dispatchEvent(new Event('dragstart', { bubbles: true }));
    items[0].dispatchEvent(new Event('dragover', { bubbles: true, cancelable: true }));
    items[0].dispatchEvent(new Event('drop', { bubbles: true, cancelable: true }));
    await until(() => shown()[0] === '/c');
    expect(shown()).toEqual(['/c', '/a', '/b']);
  });

  it('closes a clean file whose source was removed', async () => {
    await start();
    handlers.read_file = ({ path }) => ({ path, text: 'x' });
    await studio.openSkill('/lib/s2/skill-c/SKILL.md');
    expect(studio.file).not.toBeNull();
    await studio.removeSource(2);
    expect(studio.file).toBeNull();
  });
});
