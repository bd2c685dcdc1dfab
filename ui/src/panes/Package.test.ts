import { afterEach, describe, expect, it } from 'vitest';
import { clearMocks, mockIPC } from '@tauri-apps/api/mocks';
import { emit } from '@tauri-apps/api/event';
import type { Studio } from '../lib/studio.svelte';
import { commandList } from '../lib/commands';
import type { BuildPackages, BuildReport, PackageRow, PackageView } from '../lib/bindings';
import { $, $$, calls, change, dispatcher, oneSource, skill, until, mountApp, unmountApp } from '../testing/fixtures';

const ALPHA = '---\nname: alpha\ndescription: A.\n---\n';
const BETA = '---\nname: Beta Skill\ndescription: B.\n---\n';

function row(over: Partial<PackageRow>): PackageRow {
  return {
    target: 'claude-ai',
    name: 'alpha',
    source: '/lib/s0',
    out: 'alpha.zip',
    skills: ['alpha'],
    ready: true,
    files: 2,
    bytes: 2048,
    max_files: 200,
    max_bytes: 30 * 1024 * 1024,
    failures: [],
    ...over,
  };
}

const betaFailure = {
  path: '/lib/s0/beta/SKILL.md',
  code: 'SK203',
  severity: 'error' as const,
  message: 'the name is not kebab-case',
  help: 'use lowercase letters, digits and hyphens',
  start: { line: 2, column: 7, column_utf16: 7 },
};

// The engine's view of the library: alpha's upload is ready and close to the file limit, beta's
// name refuses its upload and every plugin.
const VIEW: PackageView = {
  rows: [
    row({ files: 150 }),
    row({ name: 'Beta Skill', out: 'beta-skill.zip', skills: ['Beta Skill'], ready: false, failures: [betaFailure] }),
    row({ target: 'claude-plugin', name: 's0', out: 's0-claude-plugin', skills: ['alpha', 'Beta Skill'], ready: false, failures: [betaFailure], files: 5, max_files: null, max_bytes: null }),
    row({ target: 'codex-plugin', name: 's0', out: 's0-codex-plugin', skills: ['alpha', 'Beta Skill'], ready: false, failures: [betaFailure], files: 5, max_files: null, max_bytes: null }),
    row({ target: 'agent-plugin', name: 's0', out: 's0-agent-plugin', skills: ['alpha', 'Beta Skill'], ready: false, failures: [betaFailure], files: 5, max_files: null, max_bytes: null }),
  ],
};

let studio: Studio;
let picked: string | null = null;
let finishBuild: ((r: BuildReport) => void) | null = null;

async function start() {
  const read = (p: string) => (p.includes('alpha') ? ALPHA : BETA);
  const dispatch = dispatcher(
    oneSource([skill('alpha', 0), skill('beta', 0)], read, {
      package_targets: () => VIEW,
      build_packages: (args: BuildPackages) => {
        if (args.targets.includes('claude-plugin')) {
          throw { code: 'package-refused', message: '1 package(s) fail their rules; nothing was built: s0-claude-plugin', details: [{ message: 's0-claude-plugin: /lib/s0/beta/SKILL.md: the name is not kebab-case (SK203)', line: 2, column: 7 }] };
        }
        return new Promise<BuildReport>((resolve) => (finishBuild = resolve));
      },
    }),
    calls,
  );
  calls.length = 0;
  mockIPC(
    (cmd, payload) => {
      if (cmd === 'plugin:dialog|open') return picked;
      return dispatch(cmd, payload);
    },
    { shouldMockEvents: true },
  );
  studio = await mountApp(2);
}

const rows = (target: string) => $$(`[data-testid=package-target-${target}] [data-testid=package-row]`);
const builds = () => calls.filter((c) => c.cmd === 'build_packages').map((c) => c.args as BuildPackages);

afterEach(() => {
  unmountApp();
  clearMocks();
  picked = null;
  finishBuild = null;
});

describe('Package pane', () => {
  it('is reached from the command palette and shows each target with its status and sizes against the limits', async () => {
    await start();
    expect(calls.some((c) => c.cmd === 'package_targets')).toBe(false);
    // The palette lists it as any pane (Alt+8); running it opens the tab.
    const noop = () => {};
    const go = commandList(studio, { palette: noop, goToSkill: noop, pickAgent: noop, toggleTheme: noop }).find((c) => c.id === 'focus-package')!;
    expect([go.title, go.key]).toEqual(['Go to Package', 'Alt+8']);
    go.run();
    await until(() => rows('claude-ai').length === 2);
    expect(studio.layout.sideTab).toBe('package');
    expect(calls.find((c) => c.cmd === 'package_targets')?.args).toEqual({ sources: ['/lib/s0'] });
    expect(rows('claude-ai').map((r) => [r.querySelector('.name')?.textContent, r.dataset.status])).toEqual([
      ['alpha.zip', 'ready'],
      ['beta-skill.zip', 'fails'],
    ]);
    expect(rows('agent-plugin').map((r) => r.dataset.status)).toEqual(['fails']);
    expect($('[data-testid=package-target-claude-ai] .count')?.textContent).toBe('1 of 2 packages ready');
    // The upload's file limit as a bar: 150 of 200 files.
    const alpha = rows('claude-ai')[0];
    const bars = [...alpha.querySelectorAll<HTMLElement>('.meter span')];
    expect(bars.map((b) => b.style.width)).toEqual(['75%', '0%']);
    expect(alpha.querySelector<HTMLElement>('[data-testid=package-size]')!.title).toBe('150 of 200 files (75%); 2 KB of 30 MB uncompressed (<0.01%)');
    // A plugin has no limit: plain sizes, no bar.
    expect(rows('codex-plugin')[0].querySelectorAll('.meter')).toHaveLength(0);
    expect(rows('codex-plugin')[0].querySelector('[data-testid=package-size]')?.textContent).toContain('5 files');
  });

  it('opens the file at the place of a failure', async () => {
    await start();
    studio.focusPane('package');
    await until(() => rows('claude-ai').length === 2);
    const f = rows('claude-ai')[1].querySelector<HTMLElement>('[data-testid=package-failure]')!;
    expect(f.textContent).toBe('SK203 the name is not kebab-case');
    f.click();
    await until(() => studio.editing.file?.path === '/lib/s0/beta/SKILL.md');
    await until(() => studio.editing.jump !== null);
    expect(studio.editing.jump).toMatchObject({ line: 2, columnUtf16: 7 });
  });

  it('builds into the chosen folder with progress, then lists the paths written; a refusal shows its places', async () => {
    await start();
    studio.focusPane('package');
    await until(() => rows('claude-ai').length === 2);
    const build = () => $('[data-testid=package-build]') as HTMLButtonElement;
    expect(build().disabled).toBe(true);
    picked = '/home/me/out';
    $('[data-testid=package-choose-folder]')!.click();
    await until(() => ($('[data-testid=package-out]') as HTMLInputElement).value === '/home/me/out');
    expect(build().disabled).toBe(false);
    // Every target: the plugins are refused, with the places.
    build().click();
    await until(() => $('[data-testid=package-build-error]') !== null);
    expect($('[data-testid=package-build-error]')!.textContent).toContain('nothing was built');
    expect($('[data-testid=package-build-error] .detail')!.textContent).toContain('beta/SKILL.md');
    // Only the uploads, overwriting.
    for (const t of ['claude-plugin', 'codex-plugin', 'agent-plugin']) change($(`[data-testid=package-choose-${t}]`), false);
    change($('[data-testid=package-overwrite]'), true);
    build().click();
    await until(() => finishBuild !== null);
    expect(builds().at(-1)).toEqual({ sources: ['/lib/s0'], targets: ['claude-ai'], out: '/home/me/out', overwrite: true });
    expect(build().disabled).toBe(true);
    await emit('package-progress', { done: 1, total: 2, path: '/home/me/out/alpha.zip' });
    await until(() => $('[data-testid=package-progress]')?.textContent === '1 of 2: alpha.zip');
    finishBuild!({
      out: '/home/me/out',
      written: [
        { target: 'claude-ai', name: 'alpha', path: '/home/me/out/alpha.zip', files: 1, bytes: 900 },
        { target: 'claude-ai', name: 'Beta Skill', path: '/home/me/out/beta-skill.zip', files: 1, bytes: 2100 },
      ],
    });
    await until(() => $$('[data-testid=package-written]').length === 2);
    expect($$('[data-testid=package-written]').map((w) => w.title)).toEqual(['/home/me/out/alpha.zip', '/home/me/out/beta-skill.zip']);
    expect($('[data-testid=package-report]')!.textContent).toContain('Wrote 2 packages into /home/me/out');
    expect($('[data-testid=package-progress]')).toBeNull();
    expect($('[data-testid=package-build-error]')).toBeNull();
  });
});
