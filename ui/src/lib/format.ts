// Numbers and counted words as the panes show them: thousands separators everywhere, the same
// in every locale (the end-to-end tests compare with the CLI's numbers).

/** `1234567` as `1,234,567`. */
export function num(n: number): string {
  return n.toLocaleString('en-US');
}

/** `n` with `word` (its plural: `plural`, else `word` + "s"): "1 skill", "2,757 characters". */
export function count(n: number, word: string, plural = `${word}s`): string {
  return `${num(n)} ${n === 1 ? word : plural}`;
}

/** A share in percent, readable at any size: "30%", "1.1%", "0.04%", "<0.01%". */
export function percent(p: number): string {
  if (p === 0) return '0%';
  if (p < 0.01) return '<0.01%';
  const digits = p >= 10 ? 0 : p >= 1 ? 1 : 2;
  return `${Number(p.toFixed(digits)).toLocaleString('en-US', { maximumFractionDigits: digits })}%`;
}

/** A budget unit in words: the engine says `characters`, `display columns`, `token units`
 *  (and a test may say `chars`). */
export function unitName(unit: string): string {
  return unit === 'chars' ? 'characters' : unit;
}
