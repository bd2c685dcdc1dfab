//! Reading skills from disk: finding the skill file, refusing what must not be read (folders,
//! FIFOs, files over 10 MiB) before opening it, and decoding. Everything else is pure and lives in
//! `skill`.

use crate::skill::{FileProblem, Skill, MAX_FILE_BYTES};
use std::fs;
use std::path::{Path, PathBuf};

/// The names a skill file has: `SKILL.md`, and the lowercase `skill.md` skills-ref also accepts.
pub const SKILL_FILE_NAMES: [&str; 2] = ["SKILL.md", "skill.md"];

/// Whether `path` names a skill file (by its file name).
pub fn is_skill_file(path: &Path) -> bool {
    path.file_name().and_then(|n| n.to_str()).is_some_and(|n| SKILL_FILE_NAMES.contains(&n))
}

/// The skill file in `dir`: `SKILL.md`, else the lowercase `skill.md` skills-ref also accepts.
pub fn skill_file_name(dir: &Path) -> Option<&'static str> {
    skill_file_probe(dir).map(|(name, _)| name)
}

/// [`skill_file_name`], with the file's size when it is a regular file (not a link): what
/// [`read_skill_file_sized`] would otherwise stat again.
pub(crate) fn skill_file_probe(dir: &Path) -> Option<(&'static str, Option<u64>)> {
    SKILL_FILE_NAMES.into_iter().find_map(|n| {
        let meta = fs::symlink_metadata(dir.join(n)).ok()?;
        Some((n, meta.file_type().is_file().then_some(meta.len())))
    })
}

/// What a file that is not a regular file is (a FIFO, socket, device or folder), by its type.
pub(crate) fn kind_of(ft: &fs::FileType) -> Option<&'static str> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return Some("FIFO");
        }
        if ft.is_socket() {
            return Some("socket");
        }
        if ft.is_block_device() || ft.is_char_device() {
            return Some("device");
        }
    }
    if ft.is_dir() {
        return Some("directory");
    }
    None
}

/// The folder's real path, so that `.` and `..` have names.
pub fn resolve_dir(dir: &Path) -> PathBuf {
    fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf())
}

/// Read the skill in folder `dir`. Never fails: problems are recorded on the skill. Symlinks
/// are followed only inside the skill folder.
pub fn read_skill(dir: &Path) -> Skill {
    let dir = resolve_dir(dir);
    let Some(name) = skill_file_name(&dir) else {
        return Skill::unreadable(dir, "SKILL.md", FileProblem::Missing);
    };
    read_skill_file(&dir, name)
}

/// Read `dir/name`, which is known to exist (or be a dangling link); symlinks are followed only
/// inside `dir`.
pub fn read_skill_file(dir: &Path, name: &str) -> Skill {
    read_skill_file_sized(dir, name, None, &[dir.to_path_buf()])
}

/// [`read_skill_file`] when a stat of the file (not following links) just found a regular file
/// of `regular_len` bytes (the file is not stat'ed again), following symlinks (the skill file's
/// and its resources') only while they stay inside the real folders `within`, the library's
/// sources.
pub(crate) fn read_skill_file_sized(dir: &Path, name: &str, regular_len: Option<u64>, within: &[PathBuf]) -> Skill {
    let path = dir.join(name);
    let len = match regular_len {
        Some(len) => len,
        None => {
            let meta = match fs::metadata(&path) {
                Ok(m) => m,
                Err(e) => return Skill::unreadable(dir, name, FileProblem::Unreadable { error: describe(&e) }),
            };
            if let Some(kind) = kind_of(&meta.file_type()) {
                return Skill::unreadable(dir, name, FileProblem::NotAFile { kind });
            }
            // A symlinked skill file: read only when it resolves inside the library.
            if fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
                let real = fs::canonicalize(&path).ok();
                if !real.as_ref().is_some_and(|r| within.iter().any(|w| r.starts_with(w))) {
                    let shown = real.map_or_else(|| "?".into(), |r| r.display().to_string());
                    let error = format!("a symlink to {shown}, outside the library: not read");
                    return Skill::unreadable(dir, name, FileProblem::Unreadable { error });
                }
            }
            meta.len()
        }
    };
    if len > MAX_FILE_BYTES {
        return Skill::unreadable(dir, name, FileProblem::TooLarge { size: len });
    }
    // Room for one byte more than the file has: one read fills it, and one more sees its end.
    let mut bytes = Vec::with_capacity(len as usize + 1);
    let read =
        crate::scope::open_regular_file(&path).and_then(|(f, _)| read_to_end(&f, &mut bytes, MAX_FILE_BYTES + 1));
    match read {
        Err(e) => Skill::unreadable(dir, name, FileProblem::Unreadable { error: describe(&e) }),
        // The file grew between stat and read.
        Ok(_) if bytes.len() as u64 > MAX_FILE_BYTES => {
            Skill::unreadable(dir, name, FileProblem::TooLarge { size: bytes.len() as u64 })
        }
        Ok(_) => {
            let mut skill = Skill::from_bytes(dir, name, bytes);
            // Symlinks may lead anywhere in the library, or within the skill itself (a skill
            // folder linked in from elsewhere).
            let opts = crate::resources::ScanOptions::default();
            let mut bounds = within.to_vec();
            bounds.push(dir.to_path_buf());
            skill.resources = Some(crate::resources::scan_within(dir, name, opts, &bounds));
            skill
        }
    }
}

fn describe(e: &std::io::Error) -> String {
    let s = e.to_string();
    s.split(" (os error").next().unwrap_or(&s).to_string()
}

/// Reads `f` to its end into `bytes`, stopping once it holds `max` bytes or more: into the room
/// `bytes` already has, then in 8 KB steps. (`Read::read_to_end` starts with an 8 KB read
/// whatever the room, so a larger file took a read more.)
#[cfg(unix)]
fn read_to_end(f: &fs::File, bytes: &mut Vec<u8>, max: u64) -> std::io::Result<usize> {
    let start = bytes.len();
    while (bytes.len() as u64) < max {
        if bytes.len() == bytes.capacity() {
            bytes.reserve(8192);
        }
        match rustix::io::read(f, rustix::buffer::spare_capacity(bytes)) {
            Ok(0) => break,
            Ok(_) => {}
            Err(rustix::io::Errno::INTR) => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(bytes.len() - start)
}

#[cfg(not(unix))]
fn read_to_end(f: &fs::File, bytes: &mut Vec<u8>, max: u64) -> std::io::Result<usize> {
    use std::io::Read;
    f.take(max).read_to_end(bytes)
}
