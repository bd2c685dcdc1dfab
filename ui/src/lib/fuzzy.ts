// Fuzzy matching as the quick picks of VS Code and Zed do it: the query's characters in order,
// not necessarily together, case-insensitive; a match scores higher when its characters are
// together, at the start of a word, or at the start of the text. Used by the command palette,
// "go to skill" (Ctrl+P), the agent picker and the Library's filter.

export type Match = { score: number; /** Indexes of the matched characters in the text. */ at: number[] };

const boundary = (text: string, i: number) => i === 0 || /[\s\-_./:()]/.test(text[i - 1]) || (/[a-z]/.test(text[i - 1]) && /[A-Z]/.test(text[i]));

/** How `text` matches `query` (null when it does not); an empty query matches everything. */
export function fuzzy(query: string, text: string): Match | null {
  const q = query.trim().toLowerCase().replace(/\s+/g, ' ');
  if (q === '') return { score: 0, at: [] };
  const lower = text.toLowerCase();
  // A plain substring wins over a scattered match of the same letters.
  const sub = lower.indexOf(q);
  if (sub >= 0) {
    const at = Array.from({ length: q.length }, (_, k) => sub + k);
    return { score: 1000 + (sub === 0 ? 200 : boundary(text, sub) ? 100 : 0) - sub - text.length / 100, at };
  }
  const at: number[] = [];
  let score = 0;
  let from = 0;
  for (const ch of q) {
    if (ch === ' ') continue;
    // Prefer the next occurrence at a word start; else the next one.
    let i = lower.indexOf(ch, from);
    if (i < 0) return null;
    for (let j = i; j >= 0; j = lower.indexOf(ch, j + 1)) {
      if (boundary(text, j)) {
        i = j;
        break;
      }
    }
    const prev = at[at.length - 1];
    score += boundary(text, i) ? 12 : 1;
    if (prev !== undefined && i === prev + 1) score += 8;
    at.push(i);
    from = i + 1;
  }
  return { score: score - text.length / 100, at };
}

/** The items matching `query`, best first (the given order among equals, and for an empty query). */
export function rank<T>(items: readonly T[], query: string, key: (item: T) => string): { item: T; match: Match }[] {
  const out: { item: T; match: Match; i: number }[] = [];
  items.forEach((item, i) => {
    const match = fuzzy(query, key(item));
    if (match) out.push({ item, match, i });
  });
  if (query.trim() !== '') out.sort((a, b) => b.match.score - a.match.score || a.i - b.i);
  return out;
}

/** `text` cut into runs, each marked when its characters matched (for highlighting). */
export function highlight(text: string, at: number[]): { text: string; hit: boolean }[] {
  const hits = new Set(at);
  const out: { text: string; hit: boolean }[] = [];
  for (let i = 0; i < text.length; i++) {
    const hit = hits.has(i);
    const last = out[out.length - 1];
    if (last && last.hit === hit) last.text += text[i];
    else out.push({ text: text[i], hit });
  }
  return out;
}
