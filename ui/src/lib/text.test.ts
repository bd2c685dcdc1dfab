import { describe, expect, it } from 'vitest';
import { bytesToUtf16 } from './text';

describe('bytesToUtf16', () => {
  it('maps UTF-8 byte offsets to UTF-16 offsets across multi-byte characters', () => {
    const text = 'aé😀b';
    // bytes: a=1, é=2, 😀=4, b=1 ; units: a=1, é=1, 😀=2, b=1
    expect(bytesToUtf16(text, [0, 1, 3, 7, 8])).toEqual([0, 1, 2, 4, 5]);
  });
  it('keeps the order of the offsets asked for and clamps past the end', () => {
    expect(bytesToUtf16('abc', [2, 0, 99])).toEqual([2, 0, 3]);
  });
});
