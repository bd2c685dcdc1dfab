import { describe, expect, it } from 'vitest';
import { lineDiff, type DiffLine } from './diff';

/** The diff as `  same`, `- removed`, `+ added`, `… n`. */
function show(d: DiffLine[]): string[] {
  return d.map((l) => (l.kind === 'skipped' ? `… ${l.count}` : `${{ same: ' ', removed: '-', added: '+' }[l.kind]} ${l.text}`));
}

describe('lineDiff', () => {
  it('marks the lines only on disk and only in the editor, numbered in each text', () => {
    const d = lineDiff('a\nb\nc\nd\n', 'a\nB\nc\nd\ne\n');
    expect(show(d)).toEqual(['  a', '- b', '+ B', '  c', '  d', '+ e']);
    expect(d[1]).toMatchObject({ old: 2, new: null });
    expect(d[2]).toMatchObject({ old: null, new: 2 });
    expect(d[5]).toMatchObject({ old: null, new: 5 });
  });

  it('matches moved and repeated lines by a longest common subsequence', () => {
    expect(show(lineDiff('x\na\nb\na\n', 'a\nb\na\nx\n'))).toEqual(['- x', '  a', '  b', '  a', '+ x']);
  });

  it('folds unchanged lines far from a change', () => {
    const a = Array.from({ length: 20 }, (_, i) => `l${i}`).join('\n');
    const b = a.replace('l10', 'L10');
    expect(show(lineDiff(a, b, 2))).toEqual(['… 8', '  l8', '  l9', '- l10', '+ L10', '  l11', '  l12', '… 7']);
  });

  it('treats CRLF like LF, and equal texts as one folded run', () => {
    expect(show(lineDiff('a\r\nb\r\n', 'a\nb\n'))).toEqual(['… 2']);
    expect(lineDiff('', '')).toEqual([]);
    expect(show(lineDiff('', 'new\n'))).toEqual(['+ new']);
  });

  it('shows a missing line break at the end as a change', () => {
    const d = lineDiff('a\nb\n', 'a\nb');
    expect(show(d)).toEqual(['  a', '- b', '+ b']);
    expect(d[1]).not.toHaveProperty('noEol');
    expect(d[2]).toMatchObject({ kind: 'added', noEol: true });
  });

  it('shows a huge rewrite as one block removed and one added', () => {
    const a = Array.from({ length: 1500 }, (_, i) => `a${i}`).join('\n');
    const b = Array.from({ length: 1500 }, (_, i) => `b${i}`).join('\n');
    const d = lineDiff(a, b);
    expect(d.filter((l) => l.kind === 'removed')).toHaveLength(1500);
    expect(d.filter((l) => l.kind === 'added')).toHaveLength(1500);
    expect(d[0]).toMatchObject({ kind: 'removed', text: 'a0' });
  });
});
