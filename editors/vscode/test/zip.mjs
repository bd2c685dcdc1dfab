// A small zip reader (central directory; stored and deflated entries), enough to open a .vsix
// without depending on an `unzip` program.
import { readFileSync } from "node:fs";
import { inflateRawSync } from "node:zlib";

/** The entries of the zip file at `path`: Map<name, () => Buffer>. */
export function readZip(path) {
  const buf = readFileSync(path);
  // End of central directory: signature 0x06054b50, within the last 22 + 65535 bytes.
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd === -1) throw new Error(`${path}: not a zip file (no end of central directory)`);
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  const entries = new Map();
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(at) !== 0x02014b50) throw new Error(`${path}: bad central directory entry ${n}`);
    const method = buf.readUInt16LE(at + 10);
    const compressedSize = buf.readUInt32LE(at + 20);
    const size = buf.readUInt32LE(at + 24);
    const nameLength = buf.readUInt16LE(at + 28);
    const extraLength = buf.readUInt16LE(at + 30);
    const commentLength = buf.readUInt16LE(at + 32);
    const local = buf.readUInt32LE(at + 42);
    const name = buf.toString("utf8", at + 46, at + 46 + nameLength);
    entries.set(name, () => {
      if (buf.readUInt32LE(local) !== 0x04034b50) throw new Error(`${path}: bad local header for ${name}`);
      const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
      const raw = buf.subarray(start, start + compressedSize);
      const data = method === 0 ? raw : method === 8 ? inflateRawSync(raw) : null;
      if (data === null) throw new Error(`${path}: ${name} uses compression method ${method}`);
      if (data.length !== size) throw new Error(`${path}: ${name} is ${data.length} bytes, expected ${size}`);
      return Buffer.from(data);
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
