//! Reading an upload archive (`.zip`, or a `.skill`, which is a zip) as untrusted input. Every
//! limit is checked before anything is inflated: the archive's own size (a stat), its entry count
//! (read from the end-of-central-directory record before the directory is parsed), the sizes the
//! entries declare; then, while inflating, the bytes actually read, entry by entry and in total,
//! so that a zip bomb that lies about its sizes stops at the cap instead of filling memory.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// The largest archive file read at all.
pub const MAX_ARCHIVE_BYTES: u64 = 64 * 1024 * 1024;
/// The most entries read (the upload allows 200; more than this is not even listed).
pub const MAX_ENTRIES: usize = 10_000;
/// The most bytes inflated in all, over every entry: the upload's own limit and one byte more, so
/// that going over it is seen.
pub const MAX_INFLATED_BYTES: u64 = crate::package::upload::MAX_UNCOMPRESSED_BYTES + 1;

/// One entry of an archive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The name as stored (`/`-separated).
    pub name: String,
    pub is_dir: bool,
    /// The uncompressed size the entry declares.
    pub size: u64,
    /// The bytes, for the entries read (the skill files, small text files); `None` otherwise.
    pub data: Option<Vec<u8>>,
}

/// What reading an archive found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Archive {
    pub entries: Vec<Entry>,
    /// Bytes inflated in all (each entry's actual size).
    pub inflated: u64,
}

/// Why an archive could not be read (the upload says "Invalid zip file"); the reason is ours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchiveError(pub String);

impl std::fmt::Display for ArchiveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The number of entries an archive's end-of-central-directory record declares, read from its
/// last 64 KiB + 22 bytes, or `None` when there is no such record (not a zip). A ZIP64 archive
/// (0xFFFF) is reported as having `u16::MAX` entries or more.
fn declared_entries(f: &mut (impl Read + Seek), len: u64) -> std::io::Result<Option<u64>> {
    let tail = len.min(65_535 + 22);
    f.seek(SeekFrom::Start(len - tail))?;
    let mut buf = Vec::with_capacity(tail as usize);
    f.take(tail).read_to_end(&mut buf)?;
    let Some(at) = buf.windows(4).rposition(|w| w == [0x50, 0x4b, 0x05, 0x06]) else { return Ok(None) };
    let rec = &buf[at..];
    if rec.len() < 22 {
        return Ok(None);
    }
    Ok(Some(u16::from_le_bytes([rec[10], rec[11]]) as u64))
}

/// Whether an entry's bytes are read: the skill files, and the manifests a skill must not hold.
fn wanted(name: &str) -> bool {
    let file = name.rsplit('/').next().unwrap_or(name);
    crate::read::SKILL_FILE_NAMES.contains(&file) || file.ends_with(".json") || file.ends_with(".yaml")
}

/// Read the archive at `path`: every entry's name and declared size, the bytes of the entries
/// [`wanted`] (each capped at the skill file limit), and every entry inflated once to count its
/// actual size against [`MAX_INFLATED_BYTES`]. A file that is not a zip, is over a limit, or
/// whose entries inflate to more than they declare is an [`ArchiveError`].
pub fn read(path: &Path) -> Result<Archive, ArchiveError> {
    let bytes = crate::files::read(path, MAX_ARCHIVE_BYTES).map_err(|e| ArchiveError(crate::files::reason(&e)))?;
    read_bytes(&bytes)
}

/// [`read`] on the archive's bytes.
pub fn read_bytes(bytes: &[u8]) -> Result<Archive, ArchiveError> {
    let mut cur = std::io::Cursor::new(bytes);
    let io = |e: std::io::Error| ArchiveError(e.to_string());
    match declared_entries(&mut cur, bytes.len() as u64).map_err(io)? {
        None => return Err(ArchiveError("not a zip archive (no end-of-central-directory record)".into())),
        Some(n) if n as usize > MAX_ENTRIES || n == u16::MAX as u64 => {
            return Err(ArchiveError(format!("{n} entries or more, over the {MAX_ENTRIES} this reader lists")));
        }
        Some(_) => {}
    }
    cur.set_position(0);
    let mut zip = zip::ZipArchive::new(cur).map_err(|e| ArchiveError(e.to_string()))?;
    if zip.len() > MAX_ENTRIES {
        return Err(ArchiveError(format!("{} entries, over the {MAX_ENTRIES} this reader lists", zip.len())));
    }
    let mut out = Archive::default();
    for i in 0..zip.len() {
        let f = zip.by_index_raw(i).map_err(|e| ArchiveError(e.to_string()))?;
        out.entries.push(Entry { name: f.name().to_string(), is_dir: f.is_dir(), size: f.size(), data: None });
    }
    // Declared sizes first: an archive declaring more than the cap is not inflated at all.
    let declared: u64 = out.entries.iter().map(|e| e.size).fold(0, u64::saturating_add);
    if declared > MAX_INFLATED_BYTES {
        return Ok(out);
    }
    let mut budget = MAX_INFLATED_BYTES;
    for (i, entry) in out.entries.iter_mut().enumerate() {
        if entry.is_dir {
            continue;
        }
        let mut f = zip.by_index(i).map_err(|e| ArchiveError(format!("{}: {e}", entry.name)))?;
        // One byte past what the entry declares shows a lie; never past the budget left.
        let cap = (entry.size + 1).min(budget);
        let keep = wanted(&entry.name) && entry.size <= crate::scope::MAX_FILE_BYTES;
        let mut data = Vec::new();
        let n = if keep {
            (&mut f).take(cap).read_to_end(&mut data)
        } else {
            std::io::copy(&mut (&mut f).take(cap), &mut std::io::sink()).map(|n| n as usize)
        }
        .map_err(|e| ArchiveError(format!("{}: {e}", entry.name)))? as u64;
        if n > entry.size {
            return Err(ArchiveError(format!(
                "{}: inflates to more than the {} bytes it declares",
                entry.name, entry.size
            )));
        }
        budget -= n;
        out.inflated += n;
        if keep {
            entry.data = Some(data);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn zip_of(files: &[(&str, &[u8])]) -> Vec<u8> {
        let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        let o = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
        for (n, b) in files {
            w.start_file(*n, o).unwrap();
            w.write_all(b).unwrap();
        }
        w.finish().unwrap().into_inner()
    }

    #[test]
    fn lists_entries_and_reads_skill_files() {
        let z = zip_of(&[("a/SKILL.md", b"---\nname: a\n---\n"), ("a/big.bin", &[7; 1000])]);
        let a = read_bytes(&z).unwrap();
        assert_eq!(a.entries.len(), 2);
        assert_eq!(a.entries[0].data.as_deref(), Some(&b"---\nname: a\n---\n"[..]));
        assert_eq!(a.entries[1].data, None);
        assert_eq!(a.inflated, 1000 + 16);
    }

    #[test]
    fn not_a_zip_is_an_error() {
        assert!(read_bytes(b"\x1f\x8b\x08 a tar.gz").unwrap_err().0.contains("not a zip"));
    }

    /// An entry that declares a small size but inflates to more is stopped one byte past what it
    /// declared (the zip bomb's lie), without inflating the rest.
    #[test]
    fn an_entry_inflating_past_its_declared_size_is_refused() {
        let mut z = zip_of(&[("a/SKILL.md", &[b'x'; 100_000])]);
        // Patch the declared uncompressed size (central directory: offset 24 of its header;
        // local header: offset 22) down to 10.
        let cd = z.windows(4).rposition(|w| w == [0x50, 0x4b, 0x01, 0x02]).unwrap();
        z[cd + 24..cd + 28].copy_from_slice(&10u32.to_le_bytes());
        z[22..26].copy_from_slice(&10u32.to_le_bytes());
        let e = read_bytes(&z).unwrap_err();
        assert!(e.0.contains("more than the 10 bytes"), "{e}");
    }

    #[test]
    fn declared_totals_over_the_cap_are_not_inflated() {
        let mut z = zip_of(&[("a/SKILL.md", b"x")]);
        let cd = z.windows(4).rposition(|w| w == [0x50, 0x4b, 0x01, 0x02]).unwrap();
        z[cd + 24..cd + 28].copy_from_slice(&u32::MAX.to_le_bytes());
        let a = read_bytes(&z).unwrap();
        assert_eq!(a.inflated, 0);
        assert_eq!(a.entries[0].size, u32::MAX as u64);
    }

    #[test]
    fn too_many_entries_are_refused_before_the_directory_is_read() {
        let mut z = zip_of(&[("a", b"")]);
        let eocd = z.windows(4).rposition(|w| w == [0x50, 0x4b, 0x05, 0x06]).unwrap();
        z[eocd + 10..eocd + 12].copy_from_slice(&60_000u16.to_le_bytes());
        assert!(read_bytes(&z).unwrap_err().0.contains("60000 entries"));
    }
}
