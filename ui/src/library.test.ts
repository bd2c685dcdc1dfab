// The Library pane at any width: names and files end in an ellipsis with the whole text in their
// title, and the agents' marks of a file are kept whole.
import { afterEach, describe, expect, it } from 'vitest';
import { clearMocks, mockIPC } from '@tauri-apps/api/mocks';
import { $, $$, route, mountApp, oneSource, settle, skill, unmountApp } from './testing/fixtures';

const LONG = 'a-skill-with-a-name-long-enough-to-be-cut-in-a-narrow-library-pane';

afterEach(() => {
  unmountApp();
  clearMocks();
});

describe('Library pane', () => {
  it('keeps each agent mark of a file whole, and gives cut names and paths their whole text as a title', async () => {
    const entry = skill(LONG, 0, {
      resources: [
        { path: 'references/a-very-long-reference-file-name.md', kind: 'reference', size: 10, discovered_by: ['gemini-cli'] },
        { path: 'scripts/run.sh', kind: 'script', size: 10, discovered_by: ['deepagents-v2', 'gemini-cli'] },
      ],
    });
    mockIPC(route(oneSource([entry], () => '---\nname: x\n---\n')), { shouldMockEvents: true });
    const studio = await mountApp(1);
    studio.library.selected = entry.path;
    await settle();

    const name = $(`[data-testid=skill][data-name=${LONG}] .name`)!;
    expect(name.title).toBe(LONG);
    const files = $$('.files .file');
    expect(files).toHaveLength(2);
    expect(files[0].querySelector('.file-path')?.getAttribute('title')).toBe('references/a-very-long-reference-file-name.md');
    // One element per agent, its sign and name together (the style keeps it on one line).
    const marks = [...files[0].querySelectorAll('.mark')];
    expect(marks.map((m) => m.textContent)).toEqual(['−deepagents-v2', '+gemini-cli']);
    expect(marks.map((m) => m.classList.contains('off'))).toEqual([true, false]);
    expect(marks[1].getAttribute('title')).toBe('gemini-cli lists the file');
    expect($('[data-testid=library] .source .source-path')?.textContent).toBe('/lib/s0');
  });
});
