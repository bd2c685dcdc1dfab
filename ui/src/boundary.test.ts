import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

it('only lib/host.ts imports @tauri-apps (tests may import its mocks)', () => {
  const root = __dirname;
  const importers = files(root)
    .filter((f) => /\.(ts|svelte)$/.test(f) && !f.endsWith('.test.ts'))
    .filter((f) => /from\s+['"]@tauri-apps\//.test(readFileSync(f, 'utf8')))
    .map((f) => relative(root, f));
  expect(importers).toEqual(['lib/host.ts']);
});

/** The modules `file` imports from this source tree (relative imports, `?raw` and the like cut),
 *  as paths relative to `root`, type-only imports included. */
function localImports(root: string, file: string): string[] {
  const src = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of src.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"](\.[^'"?]+)/g)) {
    const base = join(file, '..', m[1]);
    const hit = [base, `${base}.ts`, `${base}/index.ts`].find((p) => {
      try {
        return statSync(p).isFile();
      } catch {
        return false;
      }
    });
    if (hit) out.push(relative(root, hit));
  }
  return out;
}

it('the stores form a tree: only the root (lib/studio.svelte.ts) knows the Studio or builds a store', () => {
  const root = __dirname;
  const stores = files(join(root, 'lib')).filter((f) => f.endsWith('.svelte.ts') && !f.endsWith('studio.svelte.ts'));
  expect(stores.map((f) => relative(root, f))).toContain('lib/editing.svelte.ts');
  for (const f of stores) {
    const src = readFileSync(f, 'utf8');
    expect(localImports(root, f), relative(root, f)).not.toContain('lib/studio.svelte.ts');
    expect(src, relative(root, f)).not.toMatch(/\bnew \w+State\(/);
  }
});

it('no import cycle between the files of the UI (type-only imports included)', () => {
  const root = __dirname;
  const sources = files(root).filter((f) => /\.(ts|svelte)$/.test(f) && !f.endsWith('.test.ts') && !f.includes('/testing/'));
  const graph = new Map(sources.map((f) => [relative(root, f), localImports(root, f)]));
  const state = new Map<string, 'open' | 'done'>();
  const cycles: string[] = [];
  const visit = (n: string, path: string[]) => {
    if (state.get(n) === 'done') return;
    if (state.get(n) === 'open') {
      cycles.push([...path.slice(path.indexOf(n)), n].join(' → '));
      return;
    }
    state.set(n, 'open');
    for (const m of graph.get(n) ?? []) visit(m, [...path, n]);
    state.set(n, 'done');
  };
  for (const n of graph.keys()) visit(n, []);
  expect(graph.get('lib/studio.svelte.ts')).toContain('lib/editing.svelte.ts');
  expect(cycles).toEqual([]);
});
