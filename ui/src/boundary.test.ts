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
