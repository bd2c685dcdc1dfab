import { afterEach, describe, expect, it } from 'vitest';
import { clearMocks, mockIPC } from '@tauri-apps/api/mocks';
import type { Studio } from './lib/studio.svelte';
import type { SaveFile, Version } from './lib/bindings';
import { $, type Call, dispatcher, mountApp, oneSource, settle, skill, unmountApp, until, versionOf } from './testing/fixtures';

// A host whose disk has versions, as the engine's scoped saves do: a save carrying a `base` is
// refused with the `conflict` code when the file is no longer that version.
const PATH = '/lib/s0/demo/SKILL.md';
let disk = '';
let diskVersion: Version;
let calls: Call[] = [];
let studio: Studio;
/** Saves wait for this before answering, when set. */
let gate: Promise<void> | null = null;
const order: string[] = [];

function writeDisk(text: string) {
  disk = text;
  diskVersion = versionOf(text, Number(diskVersion?.modified_ns ?? 0) + 1);
}

const handlers = oneSource([skill('demo', 0)], () => disk, {
  read_file: ({ path }) => ({ path, text: disk, version: diskVersion }),
  save_file: async ({ path, text, base }: SaveFile) => {
    order.push(`start ${text.trim()}`);
    if (gate) await gate;
    if (base && JSON.stringify(base) !== JSON.stringify(diskVersion)) {
      order.push(`conflict ${text.trim()}`);
      throw { code: 'conflict', message: `${path} changed on disk since it was read; not saved`, details: [] };
    }
    writeDisk(text);
    order.push(`end ${text.trim()}`);
    return { path, bytes: text.length, version: diskVersion };
  },
});

async function start() {
  writeDisk('original\n');
  calls = [];
  order.length = 0;
  gate = null;
  mockIPC(dispatcher(handlers, calls), { shouldMockEvents: true });
  studio = await mountApp(1);
  await studio.editing.open(PATH);
  await until(() => $('.cm-content')?.textContent?.includes('original') ?? false);
  await settle();
}

const saves = () => calls.filter((c) => c.cmd === 'save_file').map((c) => c.args as SaveFile);

afterEach(() => {
  unmountApp();
  clearMocks();
});

describe('saving', () => {
  it('runs two quick saves one after another, each over the version the one before wrote', async () => {
    await start();
    const v0 = diskVersion;
    let open!: () => void;
    gate = new Promise((r) => (open = r));
    await studio.editing.lint('one\n');
    const first = studio.editing.save();
    await settle();
    await studio.editing.lint('two\n');
    const second = studio.editing.save();
    await settle();
    // The second save waits for the first: it has not reached the host yet.
    expect(order).toEqual(['start one']);
    open();
    await Promise.all([first, second]);
    expect(order).toEqual(['start one', 'end one', 'start two', 'end two']);
    const [a, b] = saves();
    expect(a.base).toEqual(v0);
    expect(b.base).toEqual(versionOf('one\n', Number(v0.modified_ns) + 1));
    expect(disk).toBe('two\n');
    expect(studio.editing.dirty).toBe(false);
    expect($('[data-testid=conflict]')).toBeNull();
  });

  it('raises the conflict view instead of overwriting a change made on disk since the file was read', async () => {
    await start();
    await studio.editing.lint('mine\n');
    // An external edit the watcher has not reported yet.
    writeDisk('theirs\n');
    await studio.editing.save();
    await until(() => $('[data-testid=conflict]') !== null);
    expect(disk).toBe('theirs\n');
    expect(order).toEqual(['start mine', 'conflict mine']);
    expect(studio.editing.dirty).toBe(true);
    // Keep mine: saved over exactly the disk's version shown.
    await studio.editing.keepMine();
    expect(disk).toBe('mine\n');
    expect(saves().at(-1)?.base).toEqual(versionOf('theirs\n', Number(diskVersion.modified_ns) - 1));
    expect($('[data-testid=conflict]')).toBeNull();
  });
});
