// The editor's hover and completion (`lib/codemirror/assist.ts`): the engine's Markdown as DOM
// nodes, when completion asks the engine as you type, and its answers taken into the text.
import { afterEach, describe, expect, it } from 'vitest';
import { Text } from '@codemirror/state';
import { acceptCompletion, completionStatus, currentCompletions, startCompletion } from '@codemirror/autocomplete';
import type { EditorView } from '@codemirror/view';
import { createEditor } from './lib/codemirror';
import { blocks, inFrontmatter, renderMarkdown, strongParts, toResult, worthAsking } from './lib/codemirror/assist';
import type { CompletionItem, Position } from './lib/bindings';
import { until } from './testing/harness';

const at = (line: number, column_utf16: number): Position => ({ line, column: column_utf16, column_utf16 });

const item = (label: string, start: Position, end: Position, kind: CompletionItem['kind'] = 'key'): CompletionItem => ({
  label,
  kind,
  detail: 'specification field',
  documentation: `**\`${label}\`**\n\nA field.`,
  insert: `${label}: `,
  start,
  end,
});

describe('the engine’s Markdown', () => {
  it('splits paragraphs and bullet lists', () => {
    const md = '**`name`**\n\nA field of the spec:\nevery agent reads it.\n\n- **codex**: listed\n- **claude-code**: listed';
    expect(blocks(md)).toEqual([
      { kind: 'p', text: '**`name`**' },
      { kind: 'p', text: 'A field of the spec: every agent reads it.' },
      { kind: 'ul', items: ['**codex**: listed', '**claude-code**: listed'] },
    ]);
  });

  it('finds bold runs and leaves an unpaired marker as text', () => {
    expect(strongParts('a **b** c ** d')).toEqual([
      { strong: false, text: 'a ' },
      { strong: true, text: 'b' },
      { strong: false, text: ' c ** d' },
    ]);
  });

  it('builds DOM nodes and reads nothing as HTML', () => {
    const dom = renderMarkdown('**`allowed-tools`** <img src=x onerror=alert(1)>\n\n- **codex**: `x`');
    expect(dom.querySelector('img')).toBeNull();
    expect(dom.querySelector('p strong code')?.textContent).toBe('allowed-tools');
    expect(dom.querySelector('p')?.textContent).toContain('<img src=x onerror=alert(1)>');
    expect(dom.querySelectorAll('ul li').length).toBe(1);
    expect(dom.querySelector('li code')?.textContent).toBe('x');
  });
});

describe('when completion asks the engine', () => {
  const doc = Text.of(['---', 'name: a', 'lic', '---', '', 'See [x](ref']);
  it('knows the frontmatter', () => {
    expect(inFrontmatter(doc, doc.line(3).to)).toBe(true);
    expect(inFrontmatter(doc, doc.line(1).to)).toBe(false);
    expect(inFrontmatter(doc, doc.line(6).to)).toBe(false);
    expect(inFrontmatter(Text.of(['# no frontmatter', 'name']), 8 + 17)).toBe(false);
  });

  it('asks for a key, a value or a link destination being typed', () => {
    expect(worthAsking('lic', true)).toBe(true);
    expect(worthAsking('license: MI', true)).toBe(true);
    expect(worthAsking('  - item', true)).toBe(false);
    expect(worthAsking('description: Shows a demo', true)).toBe(false);
    expect(worthAsking('See [x](ref', false)).toBe(true);
    expect(worthAsking('Plain words', false)).toBe(false);
  });

  it('replaces from the first item’s start to the cursor', () => {
    const r = toResult(doc, doc.line(3).to, [item('license', at(3, 1), at(3, 4))]);
    expect(r?.from).toBe(doc.line(3).from);
    expect(r?.to).toBe(doc.line(3).to);
    expect(r?.options[0]).toMatchObject({ label: 'license', apply: 'license: ', detail: 'specification field', type: 'property' });
    expect(toResult(doc, 3, [])).toBeNull();
  });
});

describe('in the editor', () => {
  let view: EditorView | undefined;
  afterEach(() => {
    view?.destroy();
    view = undefined;
    document.body.innerHTML = '';
  });

  it('Ctrl+Space lists the engine’s completions and Enter takes one into the text', async () => {
    const text = '---\nname: a\nlic\n---\n';
    const asked: { text: string; line: number; column: number }[] = [];
    const parent = document.createElement('div');
    document.body.appendChild(parent);
    view = createEditor(parent, text, {
      lint: async () => [],
      applyFix: () => {},
      save: () => {},
      change: () => {},
      complete: async (t, line, column) => {
        asked.push({ text: t, line, column });
        return [item('license', at(line, 1), at(line, column))];
      },
    });
    const v = view;
    v.dispatch({ selection: { anchor: v.state.doc.line(3).to } });
    expect(startCompletion(v)).toBe(true);
    await until(() => completionStatus(v.state) === 'active' && currentCompletions(v.state).length > 0);
    expect(asked.at(-1)).toEqual({ text, line: 3, column: 4 });
    expect(currentCompletions(v.state).map((c) => c.label)).toEqual(['license']);
    // CodeMirror ignores Enter for `interactionDelay` (75 ms) after the list opens, so that a key
    // pressed as it appears is not taken as a choice: wait past it, as a user does.
    await new Promise((r) => setTimeout(r, 100));
    expect(acceptCompletion(v)).toBe(true);
    expect(v.state.doc.toString()).toBe('---\nname: a\nlicense: \n---\n');
  });
});
