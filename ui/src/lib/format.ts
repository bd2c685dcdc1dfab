// Numbers and counted words as the panes show them, through `Intl`: thousands separators
// everywhere, the plural chosen by `Intl.PluralRules`, the same in every locale (the end-to-end
// tests compare with the CLI's numbers, which are in English).

const LOCALE = 'en-US';
const numbers = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 2 });
const plurals = new Intl.PluralRules(LOCALE);

/** `1234567` as `1,234,567` (at most two decimals: `0.25`). */
export function num(n: number): string {
  return numbers.format(n);
}

/** The word for `n` of it: `word` for one, `plural` (else `word` + "s") for any other count. */
export function plural(n: number, word: string, pluralWord = `${word}s`): string {
  return plurals.select(n) === 'one' ? word : pluralWord;
}

/** `n` with `word` (its plural: `plural`, else `word` + "s"): "1 skill", "2,757 characters". */
export function count(n: number, word: string, pluralWord = `${word}s`): string {
  return `${num(n)} ${plural(n, word, pluralWord)}`;
}

/** A share in percent, readable at any size: "30%", "1.1%", "0.04%", "<0.01%". */
export function percent(p: number): string {
  if (p === 0) return '0%';
  if (p < 0.01) return '<0.01%';
  const digits = p >= 10 ? 0 : p >= 1 ? 1 : 2;
  return new Intl.NumberFormat(LOCALE, { maximumFractionDigits: digits }).format(Number(p.toFixed(digits))) + '%';
}

/** A budget unit in words: the engine says `characters`, `display columns`, `token units`
 *  (and a test may say `chars`). */
export function unitName(unit: string): string {
  return unit === 'chars' ? 'characters' : unit;
}

/** How much of an agent's listing budget the full listing needs, in percent of that budget:
 *  the one measure every agent shares, whatever its unit (0 for an empty budget). */
export function budgetShare(b: { limit: number; needed: number }): number {
  return b.limit > 0 ? (100 * b.needed) / b.limit : b.needed > 0 ? Infinity : 0;
}

/** `["a", "b", "c"]` as "a, b and c". */
export function list(items: string[]): string {
  return new Intl.ListFormat(LOCALE, { style: 'long', type: 'conjunction' }).format(items);
}

/** The one word the UI uses for each severity, singular and plural ("info" for the third:
 *  never "notes"). */
export const SEVERITY_WORDS = {
  error: ['error', 'errors'],
  warning: ['warning', 'warnings'],
  info: ['info', 'info'],
} as const;

/** `n` problems of `severity`: "1 error", "3 warnings", "2 info". */
export function severityCount(n: number, severity: keyof typeof SEVERITY_WORDS): string {
  const [one, many] = SEVERITY_WORDS[severity];
  return count(n, one, many);
}
