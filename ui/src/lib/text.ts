// Offsets between the engine (UTF-8 bytes) and the web (UTF-16 code units).

/** UTF-16 offsets of the given UTF-8 byte offsets in `text` (offsets past the end clamp). */
export function bytesToUtf16(text: string, bytes: number[]): number[] {
  const order = bytes.map((b, i) => [b, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(bytes.length);
  let byte = 0;
  let unit = 0;
  let k = 0;
  while (k < order.length) {
    if (order[k][0] <= byte || unit >= text.length) {
      out[order[k][1]] = unit;
      k++;
      continue;
    }
    const cp = text.codePointAt(unit)!;
    byte += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    unit += cp >= 0x10000 ? 2 : 1;
  }
  return out;
}
