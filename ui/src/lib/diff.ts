// A line diff for the conflict view: what changed from the disk's text to the editor's.

export type DiffLine =
  | { kind: 'same' | 'removed' | 'added'; text: string; old: number | null; new: number | null; noEol?: boolean }
  | { kind: 'skipped'; count: number };

/** Above this many cells (lines × lines of the part that differs, ~5 ms of work) the middle is
 *  shown as one block removed and one added, rather than matched line by line. */
const MAX_CELLS = 1_000_000;

/** Marks a last line with no line break after it, so that it differs from the same line with one. */
const NO_EOL = '\u0000';

function lines(text: string): string[] {
  if (text === '') return [];
  const ls = text.split(/\r?\n/);
  if (ls[ls.length - 1] === '') ls.pop();
  else ls[ls.length - 1] += NO_EOL;
  return ls;
}

/** The lines of `a` (disk) and `b` (editor) with each marked same, removed (only in `a`) or
 *  added (only in `b`), numbered in their own text (1-based); a longest common subsequence of
 *  lines, after the common start and end are set aside. Runs of unchanged lines further than
 *  `context` lines from a change are folded into one `skipped` entry. */
export function lineDiff(a: string, b: string, context = 3): DiffLine[] {
  const x = lines(a);
  const y = lines(b);
  let start = 0;
  while (start < x.length && start < y.length && x[start] === y[start]) start++;
  let end = 0;
  while (end < x.length - start && end < y.length - start && x[x.length - 1 - end] === y[y.length - 1 - end]) end++;
  const xm = x.slice(start, x.length - end);
  const ym = y.slice(start, y.length - end);

  const out: DiffLine[] = [];
  const same = (i: number, j: number) => out.push({ kind: 'same', text: x[i], old: i + 1, new: j + 1 });
  for (let i = 0; i < start; i++) same(i, i);
  if (xm.length * ym.length > MAX_CELLS) {
    xm.forEach((t, i) => out.push({ kind: 'removed', text: t, old: start + i + 1, new: null }));
    ym.forEach((t, j) => out.push({ kind: 'added', text: t, old: null, new: start + j + 1 }));
  } else {
    // lcs[i][j]: the length of a longest common subsequence of xm[i..] and ym[j..].
    const n = xm.length;
    const m = ym.length;
    const lcs = new Uint32Array((n + 1) * (m + 1));
    const at = (i: number, j: number) => i * (m + 1) + j;
    for (let i = n - 1; i >= 0; i--)
      for (let j = m - 1; j >= 0; j--)
        lcs[at(i, j)] = xm[i] === ym[j] ? lcs[at(i + 1, j + 1)] + 1 : Math.max(lcs[at(i + 1, j)], lcs[at(i, j + 1)]);
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && xm[i] === ym[j]) {
        same(start + i, start + j);
        i++;
        j++;
      } else if (i < n && (j === m || lcs[at(i + 1, j)] >= lcs[at(i, j + 1)])) {
        // Removed before added where either keeps the match as long.
        out.push({ kind: 'removed', text: xm[i], old: start + i + 1, new: null });
        i++;
      } else {
        out.push({ kind: 'added', text: ym[j], old: null, new: start + j + 1 });
        j++;
      }
    }
  }
  for (let k = 0; k < end; k++) same(x.length - end + k, y.length - end + k);
  for (const l of out) {
    if (l.kind !== 'skipped' && l.text.endsWith(NO_EOL)) {
      l.text = l.text.slice(0, -NO_EOL.length);
      l.noEol = true;
    }
  }
  return fold(out, context);
}

function fold(diff: DiffLine[], context: number): DiffLine[] {
  const changed = diff.map((d) => d.kind !== 'same');
  const near = (k: number) => {
    for (let d = Math.max(0, k - context); d <= Math.min(diff.length - 1, k + context); d++) if (changed[d]) return true;
    return false;
  };
  const out: DiffLine[] = [];
  let skipped = 0;
  diff.forEach((d, k) => {
    if (d.kind === 'same' && !near(k)) {
      skipped++;
      return;
    }
    if (skipped) out.push({ kind: 'skipped', count: skipped });
    skipped = 0;
    out.push(d);
  });
  if (skipped) out.push({ kind: 'skipped', count: skipped });
  return out;
}
