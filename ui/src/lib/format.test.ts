import { describe, expect, it } from 'vitest';
import { budgetShare, count, list, num, percent, plural, severityCount } from './format';

describe('format', () => {
  it('counts with the plural rules and groups digits', () => {
    expect(count(1, 'error')).toBe('1 error');
    expect(count(0, 'error')).toBe('0 errors');
    expect(count(1068, 'character')).toBe('1,068 characters');
    expect(count(2, 'case has', 'cases have')).toBe('2 cases have');
    expect(plural(1, 'source')).toBe('source');
    expect(plural(3, 'source')).toBe('sources');
    expect(num(1234567)).toBe('1,234,567');
    expect(num(0.256)).toBe('0.26');
  });

  it('has one word per severity', () => {
    expect(severityCount(1, 'info')).toBe('1 info');
    expect(severityCount(2, 'info')).toBe('2 info');
    expect(severityCount(1, 'warning')).toBe('1 warning');
    expect(severityCount(3, 'error')).toBe('3 errors');
  });

  it('says shares and budgets as percentages', () => {
    expect(percent(30)).toBe('30%');
    expect(percent(1.06)).toBe('1.1%');
    expect(percent(0.004)).toBe('<0.01%');
    expect(percent(1234)).toBe('1,234%');
    expect(budgetShare({ limit: 200, needed: 150 })).toBe(75);
    expect(budgetShare({ limit: 0, needed: 0 })).toBe(0);
    expect(list(['a', 'b', 'c'])).toBe('a, b, and c');
  });
});
