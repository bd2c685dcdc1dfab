//! The scoped file system: every file the engine, the simulator and the app read or write on the
//! user's behalf inside an opened library goes through a [`Scope`], which holds the library's
//! source folders (their real paths) and answers only for what lies inside them.
//!
//! - **Reads** resolve the path (symlinks included) and refuse anything whose real path is not
//!   inside a source; the file is then opened by walking from the source's folder one component
//!   at a time with `O_NOFOLLOW`, so a symlink swapped in after the check makes the open fail
//!   instead of leading out. Only regular files are read (a FIFO is opened non-blocking and
//!   refused, a device is refused), and never more than the caller's limit.
//! - **Saves** ([`Scope::save`]) are atomic and cannot be redirected: the temporary file is
//!   created exclusively (`O_EXCL | O_NOFOLLOW`, random name) in the target's folder (opened the
//!   same no-follow way), written, fsynced, renamed over the file, and the folder is fsynced
//!   before the save is reported. Saves of one file are serialised, and a save may carry the
//!   [`Version`] the editor last read: when the file changed since (an external edit), the save is
//!   refused with [`ScopeError::Conflict`] instead of overwriting it. A symlinked file is saved
//!   through to its target when that lies inside the sources; a hard-linked file is refused
//!   (a rename would silently split it from its other names).
//! - Temporary files are named `.NAME.RANDOM.skillkit-tmp` ([`is_temporary`]), so a save cut
//!   short by a crash leaves nothing that looks like a resource; the resource scan skips them and
//!   the app removes them when it opens a library.
//!
//! On platforms without `openat` (Windows), reads and saves check the resolved path and then
//! use it; the no-follow walk is Unix-only.
//!
//! Over 600 lines on purpose: every read and save confined to its folder is in this one file, so a
//! review of what skillkit may touch on disk reads one file.

use std::io::Read;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

/// DeepAgents skips SKILL.md files larger than this (`MAX_SKILL_FILE_SIZE`, 10 MiB); so do we,
/// for every text file of a skill.
pub const MAX_FILE_BYTES: u64 = 10 * 1024 * 1024;

/// The marker ending every temporary file a save creates.
pub const TEMP_SUFFIX: &str = ".skillkit-tmp";

/// Whether `name` is a save's temporary file: ours (`.NAME.RANDOM.skillkit-tmp`), or the
/// `.NAME.PID-N.tmp` that versions up to 0.1 created.
pub fn is_temporary(name: &str) -> bool {
    if !name.starts_with('.') {
        return false;
    }
    if name.ends_with(TEMP_SUFFIX) {
        return true;
    }
    // `.SKILL.md.1234-5.tmp`
    let Some(stem) = name.strip_suffix(".tmp") else { return false };
    let Some((_, tail)) = stem.rsplit_once('.') else { return false };
    let mut parts = tail.splitn(2, '-');
    let digits = |s: Option<&str>| s.is_some_and(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()));
    digits(parts.next()) && digits(parts.next())
}

/// What a file was when it was read: a save that carries it is refused if the file has changed
/// since. The hash makes the check exact even when a change keeps the size and lands within the
/// file system's timestamp granularity.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Version {
    /// Modification time, nanoseconds since the Unix epoch (as text: it does not fit a JS number).
    #[serde(with = "as_string")]
    #[cfg_attr(feature = "ts", ts(type = "string"))]
    pub modified_ns: i128,
    /// Size in bytes.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub size: u64,
    /// FNV-1a hash of the bytes, as 16 hex digits.
    pub hash: String,
}

mod as_string {
    pub fn serialize<S: serde::Serializer>(v: &i128, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&v.to_string())
    }
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<i128, D::Error> {
        let s = <String as serde::Deserialize>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

impl Version {
    fn of(meta: &Meta, bytes: &[u8]) -> Version {
        Version { modified_ns: meta.modified_ns, size: bytes.len() as u64, hash: format!("{:016x}", fnv1a(bytes)) }
    }
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Why a scoped read or save did not happen. Each names the path as the caller gave it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScopeError {
    /// The path (or what a symlink on it points to) is not inside an opened source.
    Outside { path: PathBuf },
    /// Nothing there.
    Missing { path: PathBuf },
    /// A folder, FIFO, socket or device: only regular files are read or saved.
    NotAFile { path: PathBuf, kind: &'static str },
    /// Larger than the caller's limit; not read.
    TooLarge { path: PathBuf, size: u64, limit: u64 },
    /// The file has other hard links, which replacing it would split off.
    HardLinked { path: PathBuf, links: u64 },
    /// The file changed since the version the save was based on; nothing was written.
    Conflict { path: PathBuf, disk: Option<Version> },
    /// The operating system refused (permissions, a full disk, a component swapped for a
    /// symlink while reading, …).
    Io { path: PathBuf, message: String },
    /// Read as text, but not UTF-8: the bytes are valid up to `valid_up_to`.
    NotUtf8 { path: PathBuf, valid_up_to: usize },
}

impl ScopeError {
    /// A short stable code for each kind.
    pub fn code(&self) -> &'static str {
        match self {
            ScopeError::Outside { .. } => "outside-library",
            ScopeError::Missing { .. } => "missing",
            ScopeError::NotAFile { .. } => "not-a-file",
            ScopeError::TooLarge { .. } => "too-large",
            ScopeError::HardLinked { .. } => "hard-linked",
            ScopeError::Conflict { .. } => "conflict",
            ScopeError::Io { .. } => "io",
            ScopeError::NotUtf8 { .. } => "not-utf8",
        }
    }
    pub fn path(&self) -> &Path {
        match self {
            ScopeError::Outside { path }
            | ScopeError::Missing { path }
            | ScopeError::NotAFile { path, .. }
            | ScopeError::TooLarge { path, .. }
            | ScopeError::HardLinked { path, .. }
            | ScopeError::Conflict { path, .. }
            | ScopeError::Io { path, .. }
            | ScopeError::NotUtf8 { path, .. } => path,
        }
    }
}

impl std::fmt::Display for ScopeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ScopeError::Outside { path } => write!(f, "{} is outside the opened library", path.display()),
            ScopeError::Missing { path } => write!(f, "{}: no such file", path.display()),
            ScopeError::NotAFile { path, kind } => write!(f, "{} is a {kind}, not a file", path.display()),
            ScopeError::TooLarge { path, size, limit } => {
                write!(f, "{} is {size} bytes, over the limit of {limit} bytes; not read", path.display())
            }
            ScopeError::HardLinked { path, links } => write!(
                f,
                "{} has {links} hard links; saving would replace it with a new file and split it from the others (edit it in place elsewhere)",
                path.display()
            ),
            ScopeError::Conflict { path, .. } => {
                write!(f, "{} changed on disk since it was read; not saved", path.display())
            }
            ScopeError::Io { path, message } => write!(f, "{}: {message}", path.display()),
            ScopeError::NotUtf8 { path, valid_up_to } => {
                write!(f, "{} is not UTF-8 text (byte {valid_up_to})", path.display())
            }
        }
    }
}

impl std::error::Error for ScopeError {}

/// `path` resolved as the system would, where its last components need not exist yet (a suite
/// in a folder its first save creates): each component that exists is replaced by its real path,
/// and `..` takes the last component back (exact, since what exists is a real path by then).
pub fn resolve_lenient(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => {
                out.push(other);
                if let Ok(real) = std::fs::canonicalize(&out) {
                    out = real;
                }
            }
        }
    }
    out
}

pub(crate) fn io_error(path: &Path, e: &std::io::Error) -> ScopeError {
    if e.kind() == std::io::ErrorKind::NotFound {
        return ScopeError::Missing { path: path.to_path_buf() };
    }
    let s = e.to_string();
    let message = s.split(" (os error").next().unwrap_or(&s).to_string();
    ScopeError::Io { path: path.to_path_buf(), message }
}

/// The folders of an opened library, and the only place files are read or saved through.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    /// Real paths of the sources that exist.
    roots: Vec<PathBuf>,
    /// The sources as they were given (a missing one has no real path).
    named: Vec<PathBuf>,
}

impl Scope {
    pub fn new(sources: &[PathBuf]) -> Scope {
        let mut roots: Vec<PathBuf> = sources.iter().filter_map(|s| std::fs::canonicalize(s).ok()).collect();
        roots.dedup();
        Scope { roots, named: sources.to_vec() }
    }

    /// The same scope, also knowing the sources as the user named them (before they were
    /// resolved), so that a source removed from the disk later is still recognised.
    pub fn named(mut self, as_given: &[PathBuf]) -> Scope {
        self.named.extend(as_given.iter().cloned());
        self
    }

    /// The real paths of the sources.
    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    /// Whether the real path `real` lies inside a source.
    pub fn contains(&self, real: &Path) -> bool {
        self.root_of(real).is_some()
    }

    fn root_of(&self, real: &Path) -> Option<&Path> {
        self.roots.iter().map(PathBuf::as_path).filter(|r| real.starts_with(r)).max_by_key(|r| r.as_os_str().len())
    }

    /// A folder to read skills from (a prompt's or a session's source): one of the sources as
    /// named, or a real folder inside one.
    pub fn check_folder(&self, dir: &Path) -> Result<(), ScopeError> {
        if self.named.iter().any(|s| s == dir) {
            return Ok(());
        }
        match std::fs::canonicalize(dir) {
            Ok(real) if self.contains(&real) => Ok(()),
            _ => Err(ScopeError::Outside { path: dir.to_path_buf() }),
        }
    }

    /// Creates the folder `dir` when its parent is a real folder inside a source (a suite's
    /// `evals/` beside its skill); a folder already there is fine, unless its real path leads out.
    pub fn create_dir(&self, dir: &Path) -> Result<(), ScopeError> {
        let outside = || ScopeError::Outside { path: dir.to_path_buf() };
        let (Some(parent), Some(Component::Normal(name))) = (dir.parent(), dir.components().next_back()) else {
            return Err(outside());
        };
        let parent = std::fs::canonicalize(parent).map_err(|_| outside())?;
        if !self.contains(&parent) {
            return Err(outside());
        }
        match std::fs::create_dir(parent.join(name)) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(io_error(dir, &e)),
        }
        match std::fs::canonicalize(parent.join(name)) {
            Ok(real) if self.contains(&real) && real.is_dir() => Ok(()),
            _ => Err(outside()),
        }
    }

    /// `path` with its folder resolved to a real path, when that folder lies inside a source and,
    /// when the file exists, its real path does too. The file need not exist (a save may create
    /// it). This is a check for naming files; reads and saves check again as they open.
    pub fn check(&self, path: &Path) -> Result<PathBuf, ScopeError> {
        let outside = || ScopeError::Outside { path: path.to_path_buf() };
        let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else { return Err(outside()) };
        if matches!(Path::new(name).components().next(), Some(Component::ParentDir | Component::CurDir)) {
            return Err(outside());
        }
        let dir = std::fs::canonicalize(if dir.as_os_str().is_empty() { Path::new(".") } else { dir })
            .map_err(|_| outside())?;
        if !self.contains(&dir) {
            return Err(outside());
        }
        let full = dir.join(name);
        match std::fs::canonicalize(&full) {
            Ok(real) if !self.contains(&real) => Err(outside()),
            _ => Ok(full),
        }
    }

    /// The bytes of the regular file at `path`, at most `limit` of them.
    pub fn read(&self, path: &Path, limit: u64) -> Result<Vec<u8>, ScopeError> {
        self.read_versioned(path, limit).map(|(bytes, _)| bytes)
    }

    /// [`Scope::read`] with the file's [`Version`], for a later [`Scope::save`].
    pub fn read_versioned(&self, path: &Path, limit: u64) -> Result<(Vec<u8>, Version), ScopeError> {
        let real = std::fs::canonicalize(path).map_err(|e| io_error(path, &e))?;
        let root = self.root_of(&real).ok_or_else(|| ScopeError::Outside { path: path.to_path_buf() })?;
        let (mut file, meta) = open_regular(root, &real).map_err(|e| e.at(path))?;
        if meta.size > limit {
            return Err(ScopeError::TooLarge { path: path.to_path_buf(), size: meta.size, limit });
        }
        let mut bytes = Vec::with_capacity(meta.size as usize);
        (&mut file).take(limit + 1).read_to_end(&mut bytes).map_err(|e| io_error(path, &e))?;
        if bytes.len() as u64 > limit {
            return Err(ScopeError::TooLarge { path: path.to_path_buf(), size: bytes.len() as u64, limit });
        }
        let version = Version::of(&meta, &bytes);
        Ok((bytes, version))
    }

    /// A text file of a skill, read as the engine reads skill files (at most
    /// [`MAX_FILE_BYTES`], UTF-8), with its [`Version`] for a later save.
    pub fn read_text(&self, path: &Path) -> Result<(String, Version), ScopeError> {
        let (bytes, version) = self.read_versioned(path, MAX_FILE_BYTES)?;
        let text = String::from_utf8(bytes)
            .map_err(|e| ScopeError::NotUtf8 { path: path.to_path_buf(), valid_up_to: e.utf8_error().valid_up_to() })?;
        Ok((text, version))
    }

    /// The file's current version (it is read to hash it), or `None` when it does not exist.
    pub fn version(&self, path: &Path, limit: u64) -> Result<Option<Version>, ScopeError> {
        match self.read_versioned(path, limit) {
            Ok((_, v)) => Ok(Some(v)),
            Err(ScopeError::Missing { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Saves `bytes` to `path` atomically (see the module docs). With `expected`, the save
    /// happens only when the file is still that version (`None` inside: it must not exist yet);
    /// without, whatever is there is replaced. Returns the new version.
    pub fn save(&self, path: &Path, bytes: &[u8], expected: Option<Option<&Version>>) -> Result<Version, ScopeError> {
        self.save_inner(path, path, bytes, expected, 0)
    }

    fn save_inner(
        &self,
        shown: &Path,
        path: &Path,
        bytes: &[u8],
        expected: Option<Option<&Version>>,
        depth: usize,
    ) -> Result<Version, ScopeError> {
        let outside = || ScopeError::Outside { path: shown.to_path_buf() };
        let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else { return Err(outside()) };
        let name = name.to_str().ok_or_else(outside)?;
        if name == "." || name == ".." {
            return Err(outside());
        }
        let parent = std::fs::canonicalize(if parent.as_os_str().is_empty() { Path::new(".") } else { parent })
            .map_err(|e| io_error(shown, &e))?;
        let root = self.root_of(&parent).ok_or_else(outside)?.to_path_buf();
        let target = parent.join(name);
        // One save of a file at a time, so that the version check and the rename are one step
        // (for the saves of this process; an external writer is caught by the version check).
        let lock = file_lock(&target);
        let _held = lock.lock().unwrap_or_else(|e| e.into_inner());
        let dir = open_dir(&root, &parent).map_err(|e| e.at(shown))?;
        match dir.stat_nofollow(name) {
            Ok(st) if st.kind == Kind::Symlink => {
                // Save through a symlink to its target, when that is a file inside the sources.
                let real = std::fs::canonicalize(&target).map_err(|_| outside())?;
                if depth > 0 || !self.contains(&real) {
                    return Err(outside());
                }
                drop(_held);
                return self.save_inner(shown, &real, bytes, expected, depth + 1);
            }
            Ok(st) if st.kind != Kind::File => {
                return Err(ScopeError::NotAFile { path: shown.to_path_buf(), kind: st.kind.name() })
            }
            Ok(st) if st.links > 1 => {
                return Err(ScopeError::HardLinked { path: shown.to_path_buf(), links: st.links })
            }
            _ => {}
        }
        let existing = match dir.open_regular(name) {
            Ok((mut f, meta)) => {
                let mut old = Vec::with_capacity(meta.size as usize);
                f.read_to_end(&mut old).map_err(|e| io_error(shown, &e))?;
                Some((Version::of(&meta, &old), meta.mode))
            }
            Err(OpenError::Missing) => None,
            Err(e) => return Err(e.at(shown)),
        };
        if let Some(want) = expected {
            let disk = existing.as_ref().map(|(v, _)| v);
            if disk != want {
                return Err(ScopeError::Conflict { path: shown.to_path_buf(), disk: disk.cloned() });
            }
        }
        let mode = existing.as_ref().map(|(_, m)| *m);
        let meta = dir.replace(name, bytes, mode).map_err(|e| io_error(shown, &e))?;
        Ok(Version::of(&meta, bytes))
    }

    /// Removes the save temporaries ([`is_temporary`]) listed in `names` from folder `dir`
    /// (inside the sources); returns how many were removed.
    pub fn remove_temporaries(&self, dir: &Path, names: &[String]) -> usize {
        let Ok(real) = std::fs::canonicalize(dir) else { return 0 };
        let Some(root) = self.root_of(&real) else { return 0 };
        let Ok(d) = open_dir(root, &real) else { return 0 };
        names.iter().filter(|n| is_temporary(n) && !n.contains('/') && d.remove_file(n).is_ok()).count()
    }
}

/// Opens `path` for reading without blocking on a FIFO (the open of a FIFO with no writer would
/// wait forever) and checks, on the open file, that it is a regular file: for the engine's own
/// reads of paths it has already scoped (a race that swaps in a FIFO or device is refused).
pub(crate) fn open_regular_file(path: &Path) -> std::io::Result<(std::fs::File, u64)> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32);
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::other(if meta.is_dir() { "is a folder" } else { "not a regular file" }));
    }
    // `O_NONBLOCK` stays set: reads of a regular file ignore it, and clearing it cost two system
    // calls per file of a library.
    Ok((file, meta.len()))
}

/// The kernel file system `file` lies on, when it is one whose files are views of the kernel's
/// state rather than content (procfs, sysfs, debugfs, …): such a file is never read for a
/// library, whatever its type says (`/proc/self/environ` is a regular file of size 0 that holds
/// the process's environment, API keys included). devtmpfs holds devices, which are refused as
/// not regular files.
#[cfg(unix)]
pub(crate) fn kernel_file_system(file: &impl std::os::fd::AsFd) -> Option<&'static str> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        // The magic numbers of linux/magic.h.
        let kind = match rustix::fs::fstatfs(file).ok()?.f_type as u64 {
            0x9fa0 => "procfs pseudo-file",
            0x6265_6572 => "sysfs pseudo-file",
            0x6462_6720 => "debugfs pseudo-file",
            0x7472_6163 => "tracefs pseudo-file",
            0x7363_6673 => "securityfs pseudo-file",
            0x0027_e0eb | 0x6367_7270 => "cgroup pseudo-file",
            0x1cd1 => "devpts pseudo-file",
            0xcafe_4a11 => "bpf pseudo-file",
            0xde5e_81e4 => "efivarfs pseudo-file",
            0x6265_6570 => "configfs pseudo-file",
            0x6e73_6673 => "nsfs pseudo-file",
            0x4249_4e4d => "binfmt_misc pseudo-file",
            0x6573_5546 => "fusectl pseudo-file",
            _ => return None,
        };
        Some(kind)
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    {
        let _ = file;
        None
    }
}

/// What a folder listing says an entry is (from the listing itself: no system call per entry,
/// but where the file system does not say).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EntryKind {
    Dir,
    File,
    Symlink,
    /// A FIFO, socket or device.
    Other,
}

impl EntryKind {
    pub(crate) fn is_dir(self) -> bool {
        self == EntryKind::Dir
    }
    pub(crate) fn is_file(self) -> bool {
        self == EntryKind::File
    }
    pub(crate) fn is_symlink(self) -> bool {
        self == EntryKind::Symlink
    }
}

impl From<std::fs::FileType> for EntryKind {
    fn from(ft: std::fs::FileType) -> Self {
        if ft.is_symlink() {
            EntryKind::Symlink
        } else if ft.is_dir() {
            EntryKind::Dir
        } else if ft.is_file() {
            EntryKind::File
        } else {
            EntryKind::Other
        }
    }
}

/// The entries of folder `dir` (not `.` and `..`), in the order the file system lists them.
/// Entries that vanish while listed are left out; an error while listing ends the list.
#[cfg(unix)]
pub(crate) fn list_dir(dir: &Path) -> std::io::Result<Vec<(std::ffi::OsString, EntryKind)>> {
    use rustix::fs::{self as rfs, AtFlags, FileType, Mode, OFlags};
    use std::os::unix::ffi::OsStrExt;
    // The folder's entries straight from `getdents64`: `std::fs::read_dir` goes through libc's
    // `opendir`, which also stats the folder (one more system call per folder of a library).
    let fd = rfs::open(dir, OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC | OFlags::NONBLOCK, Mode::empty())?;
    let mut listing = rfs::Dir::new(fd)?;
    let mut out = vec![];
    while let Some(entry) = listing.read() {
        // An entry that cannot be read ends the listing (with what was read), as
        // `read_dir(..).flatten()` would skip it.
        let Ok(entry) = entry else { break };
        let name = entry.file_name().to_bytes();
        if name == b"." || name == b".." {
            continue;
        }
        let kind = match entry.file_type() {
            FileType::Directory => EntryKind::Dir,
            FileType::RegularFile => EntryKind::File,
            FileType::Symlink => EntryKind::Symlink,
            FileType::Unknown => {
                // The file system does not say in its listings: ask, as `DirEntry::file_type` does.
                let Ok(fd) = listing.fd() else { continue };
                match rfs::statat(fd, entry.file_name(), AtFlags::SYMLINK_NOFOLLOW) {
                    Ok(st) => match FileType::from_raw_mode(st.st_mode) {
                        FileType::Directory => EntryKind::Dir,
                        FileType::RegularFile => EntryKind::File,
                        FileType::Symlink => EntryKind::Symlink,
                        _ => EntryKind::Other,
                    },
                    Err(_) => continue,
                }
            }
            _ => EntryKind::Other,
        };
        out.push((std::ffi::OsStr::from_bytes(name).to_os_string(), kind));
    }
    Ok(out)
}

/// [`list_dir`] through `std::fs::read_dir`.
#[cfg(not(unix))]
pub(crate) fn list_dir(dir: &Path) -> std::io::Result<Vec<(std::ffi::OsString, EntryKind)>> {
    Ok(std::fs::read_dir(dir)?.flatten().filter_map(|e| Some((e.file_name(), e.file_type().ok()?.into()))).collect())
}

/// One lock per file path, shared by every save of this process.
fn file_lock(path: &Path) -> Arc<Mutex<()>> {
    static LOCKS: Mutex<Option<std::collections::HashMap<PathBuf, Arc<Mutex<()>>>>> = Mutex::new(None);
    let mut locks = LOCKS.lock().unwrap_or_else(|e| e.into_inner());
    let map = locks.get_or_insert_with(Default::default);
    // Forget locks nobody holds, so the map stays as small as the saves in flight.
    if map.len() > 64 {
        map.retain(|_, l| Arc::strong_count(l) > 1);
    }
    map.entry(path.to_path_buf()).or_default().clone()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    File,
    Dir,
    Symlink,
    Fifo,
    Socket,
    Device,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::File => "file",
            Kind::Dir => "directory",
            Kind::Symlink => "symlink",
            Kind::Fifo => "FIFO",
            Kind::Socket => "socket",
            Kind::Device => "device",
        }
    }
}

struct Meta {
    kind: Kind,
    size: u64,
    links: u64,
    modified_ns: i128,
    mode: u32,
}

enum OpenError {
    Missing,
    /// A symlink where the resolved path had none: something changed under us.
    Swapped,
    NotAFile(Kind),
    /// A file of a kernel file system ([`kernel_file_system`]).
    Kernel(&'static str),
    Io(std::io::Error),
}

impl OpenError {
    fn at(self, path: &Path) -> ScopeError {
        match self {
            OpenError::Missing => ScopeError::Missing { path: path.to_path_buf() },
            OpenError::Swapped => ScopeError::Io {
                path: path.to_path_buf(),
                message: "a folder or file on the path was replaced by a symlink while it was opened; not followed"
                    .into(),
            },
            OpenError::NotAFile(kind) => ScopeError::NotAFile { path: path.to_path_buf(), kind: kind.name() },
            OpenError::Kernel(kind) => ScopeError::NotAFile { path: path.to_path_buf(), kind },
            OpenError::Io(e) => io_error(path, &e),
        }
    }
}

/// The regular file at real path `real` (below real root `root`), opened without following
/// any symlink, with its metadata from the open file.
fn open_regular(root: &Path, real: &Path) -> Result<(std::fs::File, Meta), OpenError> {
    let parent = real.parent().ok_or(OpenError::Missing)?;
    let name = real.file_name().and_then(|n| n.to_str()).ok_or(OpenError::Missing)?;
    if parent.starts_with(root) {
        open_dir(root, parent)?.open_regular(name)
    } else {
        // `real` is the root itself: not a file.
        Err(OpenError::NotAFile(Kind::Dir))
    }
}

#[cfg(unix)]
mod sys {
    use super::{Kind, Meta, OpenError, TEMP_SUFFIX};
    use rustix::fs::{self as rfs, AtFlags, FileType, Mode, OFlags};
    use rustix::io::Errno;
    use std::os::fd::OwnedFd;
    use std::path::{Component, Path};

    pub struct Dir(OwnedFd);

    // `st_size` and `st_nlink` have other integer types on other platforms.
    #[allow(clippy::unnecessary_cast)]
    fn meta(st: &rfs::Stat) -> Meta {
        let kind = match FileType::from_raw_mode(st.st_mode) {
            FileType::RegularFile => Kind::File,
            FileType::Directory => Kind::Dir,
            FileType::Symlink => Kind::Symlink,
            FileType::Fifo => Kind::Fifo,
            FileType::Socket => Kind::Socket,
            _ => Kind::Device,
        };
        Meta {
            kind,
            size: st.st_size as u64,
            links: st.st_nlink as u64,
            modified_ns: i128::from(st.st_mtime) * 1_000_000_000 + i128::from(st.st_mtime_nsec),
            mode: st.st_mode & 0o7777,
        }
    }

    fn open_error(e: Errno) -> OpenError {
        match e {
            Errno::NOENT => OpenError::Missing,
            // O_NOFOLLOW on a symlink; O_DIRECTORY on a symlink to a folder.
            Errno::LOOP | Errno::NOTDIR => OpenError::Swapped,
            e => OpenError::Io(e.into()),
        }
    }

    /// Folder `real` (a real path at or below real root `root`), reached from the root one
    /// component at a time, refusing symlinks.
    pub fn open_dir(root: &Path, real: &Path) -> Result<Dir, OpenError> {
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let mut fd = rfs::open(root, flags | OFlags::NOFOLLOW, Mode::empty()).map_err(open_error)?;
        let rest = real.strip_prefix(root).map_err(|_| OpenError::Missing)?;
        for c in rest.components() {
            let Component::Normal(name) = c else { return Err(OpenError::Swapped) };
            fd = rfs::openat(&fd, name, flags | OFlags::NOFOLLOW, Mode::empty()).map_err(open_error)?;
        }
        Ok(Dir(fd))
    }

    impl Dir {
        pub fn stat_nofollow(&self, name: &str) -> Result<Meta, OpenError> {
            rfs::statat(&self.0, name, AtFlags::SYMLINK_NOFOLLOW).map(|st| meta(&st)).map_err(open_error)
        }

        /// The regular file `name` in this folder: opened non-blocking (a FIFO cannot hang the
        /// open) and without following a symlink, then checked to be a regular file.
        pub fn open_regular(&self, name: &str) -> Result<(std::fs::File, Meta), OpenError> {
            let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC | OFlags::NOCTTY;
            let fd = match rfs::openat(&self.0, name, flags, Mode::empty()) {
                Ok(fd) => fd,
                Err(Errno::LOOP) => {
                    return Err(match self.stat_nofollow(name) {
                        Ok(m) if m.kind == Kind::Symlink => OpenError::Swapped,
                        _ => OpenError::Io(Errno::LOOP.into()),
                    })
                }
                Err(e) => return Err(open_error(e)),
            };
            let m = meta(&rfs::fstat(&fd).map_err(|e| OpenError::Io(e.into()))?);
            if m.kind != Kind::File {
                return Err(OpenError::NotAFile(m.kind));
            }
            if let Some(fs) = super::kernel_file_system(&fd) {
                return Err(OpenError::Kernel(fs));
            }
            // Reads of a regular file never block; clear the flag for ordinary reads.
            let fl = rfs::fcntl_getfl(&fd).map_err(|e| OpenError::Io(e.into()))?;
            rfs::fcntl_setfl(&fd, fl - OFlags::NONBLOCK).map_err(|e| OpenError::Io(e.into()))?;
            Ok((std::fs::File::from(fd), m))
        }

        /// Replaces `name` in this folder with `bytes`: an exclusive temporary file, written,
        /// fsynced, renamed over `name`, then the folder fsynced. `mode` keeps the old file's
        /// permission bits.
        pub fn replace(&self, name: &str, bytes: &[u8], mode: Option<u32>) -> std::io::Result<Meta> {
            use std::io::Write;
            let create = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
            let perm = Mode::from_raw_mode(mode.unwrap_or(0o644) & 0o777);
            let (tmp, fd) = (0..16)
                .find_map(|_| {
                    let tmp = format!(".{name}.{:016x}{TEMP_SUFFIX}", super::random());
                    match rfs::openat(&self.0, tmp.as_str(), create, perm) {
                        Ok(fd) => Some(Ok((tmp, fd))),
                        Err(Errno::EXIST) => None,
                        Err(e) => Some(Err(std::io::Error::from(e))),
                    }
                })
                .unwrap_or_else(|| Err(std::io::Error::other("no free temporary file name")))?;
            let result = (|| {
                let mut f = std::fs::File::from(fd);
                f.write_all(bytes)?;
                // The umask may have narrowed the mode given to open; set it exactly.
                if let Some(mode) = mode {
                    rfs::fchmod(&f, Mode::from_raw_mode(mode))?;
                }
                f.sync_all()?;
                let m = meta(&rfs::fstat(&f)?);
                rfs::renameat(&self.0, tmp.as_str(), &self.0, name)?;
                Ok(m)
            })();
            match result {
                Ok(m) => {
                    rfs::fsync(&self.0)?;
                    Ok(m)
                }
                Err(e) => {
                    let _ = rfs::unlinkat(&self.0, tmp.as_str(), AtFlags::empty());
                    Err(e)
                }
            }
        }

        pub fn remove_file(&self, name: &str) -> std::io::Result<()> {
            Ok(rfs::unlinkat(&self.0, name, AtFlags::empty())?)
        }
    }
}

#[cfg(not(unix))]
mod sys {
    //! Without `openat`: the resolved path is checked, then used.
    use super::{Kind, Meta, OpenError, TEMP_SUFFIX};
    use std::path::{Path, PathBuf};

    pub struct Dir(PathBuf);

    fn meta(m: &std::fs::Metadata) -> Meta {
        let ft = m.file_type();
        let kind = if ft.is_symlink() {
            Kind::Symlink
        } else if ft.is_dir() {
            Kind::Dir
        } else if ft.is_file() {
            Kind::File
        } else {
            Kind::Device
        };
        let modified_ns = m
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos() as i128);
        Meta {
            kind,
            size: m.len(),
            links: 1,
            modified_ns,
            mode: if m.permissions().readonly() { 0o444 } else { 0o644 },
        }
    }

    fn open_error(e: std::io::Error) -> OpenError {
        if e.kind() == std::io::ErrorKind::NotFound {
            OpenError::Missing
        } else {
            OpenError::Io(e)
        }
    }

    pub fn open_dir(_root: &Path, real: &Path) -> Result<Dir, OpenError> {
        let m = std::fs::symlink_metadata(real).map_err(open_error)?;
        if !m.is_dir() {
            return Err(OpenError::Swapped);
        }
        Ok(Dir(real.to_path_buf()))
    }

    impl Dir {
        pub fn stat_nofollow(&self, name: &str) -> Result<Meta, OpenError> {
            std::fs::symlink_metadata(self.0.join(name)).map(|m| meta(&m)).map_err(open_error)
        }
        pub fn open_regular(&self, name: &str) -> Result<(std::fs::File, Meta), OpenError> {
            let m = self.stat_nofollow(name)?;
            if m.kind == Kind::Symlink {
                return Err(OpenError::Swapped);
            }
            if m.kind != Kind::File {
                return Err(OpenError::NotAFile(m.kind));
            }
            let f = std::fs::File::open(self.0.join(name)).map_err(open_error)?;
            Ok((f, m))
        }
        pub fn replace(&self, name: &str, bytes: &[u8], _mode: Option<u32>) -> std::io::Result<Meta> {
            use std::io::Write;
            let tmp = self.0.join(format!(".{name}.{:016x}{TEMP_SUFFIX}", super::random()));
            let mut f = std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp)?;
            let r =
                f.write_all(bytes).and_then(|_| f.sync_all()).and_then(|_| std::fs::rename(&tmp, self.0.join(name)));
            if r.is_err() {
                let _ = std::fs::remove_file(&tmp);
            }
            r?;
            Ok(meta(&f.metadata()?))
        }
        pub fn remove_file(&self, name: &str) -> std::io::Result<()> {
            std::fs::remove_file(self.0.join(name))
        }
    }
}

use sys::open_dir;

/// 64 bits that differ between calls and processes (not cryptographic: the exclusive create is
/// what makes the temporary file safe; the randomness only makes collisions rare).
fn random() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
    h.write_u32(std::process::id());
    if let Ok(d) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        h.write_u128(d.as_nanos());
    }
    h.finish()
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn library() -> (tempfile::TempDir, PathBuf, PathBuf, Scope) {
        let tmp = tempfile::tempdir().unwrap();
        let src = tmp.path().join("skills");
        let outside = tmp.path().join("outside");
        std::fs::create_dir_all(src.join("a")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(src.join("a/SKILL.md"), "inside").unwrap();
        std::fs::write(outside.join("secret.md"), "secret").unwrap();
        let scope = Scope::new(std::slice::from_ref(&src));
        (tmp, src, outside, scope)
    }

    #[test]
    fn folders_are_created_inside_the_sources_only_and_paths_resolve_through_missing_ones() {
        let (tmp, src, outside, scope) = library();
        scope.create_dir(&src.join("a/evals")).unwrap();
        assert!(src.join("a/evals").is_dir());
        scope.create_dir(&src.join("a/evals")).unwrap();
        for bad in [outside.join("evals"), src.join("a/../../x"), src.join("missing/evals"), tmp.path().join("..")] {
            assert!(matches!(scope.create_dir(&bad), Err(ScopeError::Outside { .. })), "{bad:?}");
        }
        symlink(&outside, src.join("a/out")).unwrap();
        assert!(matches!(scope.create_dir(&src.join("a/out")), Err(ScopeError::Outside { .. })));
        assert!(!outside.join("evals").exists());

        let real = src.canonicalize().unwrap();
        assert_eq!(resolve_lenient(&src.join("a/new/../..")), real);
        assert_eq!(resolve_lenient(&src.join("a/new/./x")), real.join("a/new/x"));
        // A symlink resolves to its target before `..` applies, as the system does it.
        assert_eq!(resolve_lenient(&src.join("a/out/..")), tmp.path().canonicalize().unwrap());
    }

    #[test]
    fn temporary_names_are_recognised() {
        assert!(is_temporary(".SKILL.md.0123456789abcdef.skillkit-tmp"));
        assert!(is_temporary(".SKILL.md.4242-7.tmp"));
        assert!(!is_temporary("SKILL.md"));
        assert!(!is_temporary(".notes.tmp"));
        assert!(!is_temporary("notes.skillkit-tmp"));
        assert!(!is_temporary(".a.b-c.tmp"));
    }

    #[test]
    fn text_reads_are_utf8_and_bounded_like_skill_files() {
        let (_tmp, src, _, scope) = library();
        assert_eq!(scope.read_text(&src.join("a/SKILL.md")).unwrap().0, "inside");
        std::fs::write(src.join("a/bad.md"), b"ok \xff").unwrap();
        let err = scope.read_text(&src.join("a/bad.md")).unwrap_err();
        assert!(matches!(err, ScopeError::NotUtf8 { valid_up_to: 3, .. }), "{err:?}");
        assert!(err.to_string().ends_with("bad.md is not UTF-8 text (byte 3)"), "{err}");
        let big = std::fs::File::create(src.join("a/big.md")).unwrap();
        big.set_len(MAX_FILE_BYTES + 1).unwrap();
        assert!(matches!(scope.read_text(&src.join("a/big.md")), Err(ScopeError::TooLarge { .. })));
    }

    #[test]
    fn reads_only_regular_files_inside_the_sources() {
        let (_tmp, src, outside, scope) = library();
        assert_eq!(scope.read(&src.join("a/SKILL.md"), 100).unwrap(), b"inside");
        let err = scope.read(&outside.join("secret.md"), 100).unwrap_err();
        assert!(matches!(err, ScopeError::Outside { .. }), "{err:?}");
        assert!(matches!(scope.read(&src.join("a/../../outside/secret.md"), 100), Err(ScopeError::Outside { .. })));
        assert!(matches!(scope.read(&src.join("a/missing.md"), 100), Err(ScopeError::Missing { .. })));
        assert!(matches!(scope.read(&src.join("a"), 100), Err(ScopeError::NotAFile { kind: "directory", .. })));
        assert!(matches!(scope.read(Path::new("/etc/passwd"), 1 << 20), Err(ScopeError::Outside { .. })));
        assert!(matches!(scope.read(Path::new("/dev/zero"), 1 << 20), Err(ScopeError::Outside { .. })));
        // Symlinks are followed only while they stay inside.
        symlink(outside.join("secret.md"), src.join("a/leak.md")).unwrap();
        symlink(src.join("a/SKILL.md"), src.join("a/alias.md")).unwrap();
        symlink("/", src.join("a/everything")).unwrap();
        assert!(matches!(scope.read(&src.join("a/leak.md"), 100), Err(ScopeError::Outside { .. })));
        assert!(matches!(scope.read(&src.join("a/everything/etc/passwd"), 1 << 20), Err(ScopeError::Outside { .. })));
        assert_eq!(scope.read(&src.join("a/alias.md"), 100).unwrap(), b"inside");
    }

    #[test]
    fn a_fifo_is_refused_without_blocking_and_sizes_are_bounded() {
        let (_tmp, src, _outside, scope) = library();
        let fifo = src.join("a/pipe.md");
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        let err = scope.read(&fifo, 100).unwrap_err();
        assert!(matches!(err, ScopeError::NotAFile { kind: "FIFO", .. }), "{err:?}");
        std::fs::write(src.join("a/big.md"), vec![b'x'; 1000]).unwrap();
        let err = scope.read(&src.join("a/big.md"), 999).unwrap_err();
        assert!(matches!(err, ScopeError::TooLarge { size: 1000, limit: 999, .. }), "{err:?}");
        assert_eq!(scope.read(&src.join("a/big.md"), 1000).unwrap().len(), 1000);
    }

    #[test]
    fn a_save_ignores_planted_temporary_symlinks() {
        let (_tmp, src, outside, scope) = library();
        let target = outside.join("target.md");
        std::fs::write(&target, "untouched").unwrap();
        // Every name the old scheme (`.NAME.PID-N.tmp`) would have used, and some of ours.
        for n in 0..200 {
            symlink(&target, src.join(format!("a/.SKILL.md.{}-{n}.tmp", std::process::id()))).unwrap();
        }
        scope.save(&src.join("a/SKILL.md"), b"new text", None).unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "untouched");
        assert_eq!(std::fs::read_to_string(src.join("a/SKILL.md")).unwrap(), "new text");
    }

    #[test]
    fn saves_stay_inside_and_check_the_version() {
        let (_tmp, src, outside, scope) = library();
        let path = src.join("a/SKILL.md");
        let (_, v0) = scope.read_versioned(&path, 100).unwrap();
        let v1 = scope.save(&path, b"one", Some(Some(&v0))).unwrap();
        // A save based on the old version is refused: the file changed since.
        let err = scope.save(&path, b"stale", Some(Some(&v0))).unwrap_err();
        assert!(matches!(&err, ScopeError::Conflict { disk: Some(d), .. } if *d == v1), "{err:?}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "one");
        // An external edit in between is caught even when the size stays the same.
        std::fs::write(&path, "two").unwrap();
        assert!(matches!(scope.save(&path, b"mine", Some(Some(&v1))), Err(ScopeError::Conflict { .. })));
        // A new file may be required not to exist yet.
        assert!(matches!(scope.save(&path, b"x", Some(None)), Err(ScopeError::Conflict { .. })));
        scope.save(&src.join("a/new.md"), b"new", Some(None)).unwrap();
        // Outside the sources, nothing is written.
        assert!(matches!(scope.save(&outside.join("x.md"), b"x", None), Err(ScopeError::Outside { .. })));
        assert!(!outside.join("x.md").exists());
        // No temporary file is left behind.
        let names: Vec<String> =
            std::fs::read_dir(src.join("a")).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        assert!(names.iter().all(|n| !is_temporary(n)), "{names:?}");
    }

    #[test]
    fn a_symlinked_file_is_saved_through_inside_and_refused_outside() {
        let (_tmp, src, outside, scope) = library();
        symlink(src.join("a/SKILL.md"), src.join("a/alias.md")).unwrap();
        scope.save(&src.join("a/alias.md"), b"through", None).unwrap();
        assert_eq!(std::fs::read_to_string(src.join("a/SKILL.md")).unwrap(), "through");
        assert!(std::fs::symlink_metadata(src.join("a/alias.md")).unwrap().file_type().is_symlink());
        symlink(outside.join("secret.md"), src.join("a/leak.md")).unwrap();
        assert!(matches!(scope.save(&src.join("a/leak.md"), b"x", None), Err(ScopeError::Outside { .. })));
        assert_eq!(std::fs::read_to_string(outside.join("secret.md")).unwrap(), "secret");
        std::fs::hard_link(src.join("a/SKILL.md"), src.join("a/hard.md")).unwrap();
        let err = scope.save(&src.join("a/hard.md"), b"x", None).unwrap_err();
        assert!(matches!(err, ScopeError::HardLinked { links: 2, .. }), "{err:?}");
    }

    #[test]
    fn a_save_keeps_the_files_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let (_tmp, src, _outside, scope) = library();
        let path = src.join("a/SKILL.md");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        scope.save(&path, b"x", None).unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
    }

    /// A symlink swapped in and out while reads run: no read may ever return the outside file.
    #[test]
    fn racing_symlink_swaps_never_read_outside() {
        let (_tmp, src, outside, scope) = library();
        let path = src.join("a/race.md");
        std::fs::write(&path, "inside").unwrap();
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flipper = {
            let (path, secret, stop) = (path.clone(), outside.join("secret.md"), stop.clone());
            std::thread::spawn(move || {
                let side = path.with_file_name("race.side");
                let link = path.with_file_name("race.link");
                std::fs::write(&side, "inside").unwrap();
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let _ = std::fs::remove_file(&link);
                    symlink(&secret, &link).unwrap();
                    std::fs::rename(&link, &path).unwrap();
                    std::fs::copy(&side, &link).unwrap();
                    std::fs::rename(&link, &path).unwrap();
                }
            })
        };
        let mut inside = 0;
        for _ in 0..20_000 {
            if let Ok(bytes) = scope.read(&path, 100) {
                assert_eq!(bytes, b"inside");
                inside += 1;
            }
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        flipper.join().unwrap();
        assert!(inside > 0);
    }

    /// A skill folder swapped for a symlink to outside while saves run: nothing lands outside.
    #[test]
    fn racing_folder_swaps_never_save_outside() {
        let (_tmp, src, outside, scope) = library();
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flipper = {
            let (src, outside, stop) = (src.clone(), outside.clone(), stop.clone());
            std::thread::spawn(move || {
                let real = src.join("a.real");
                let link = src.join("a.link");
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    std::fs::rename(src.join("a"), &real).unwrap();
                    let _ = std::fs::remove_file(&link);
                    symlink(&outside, &link).unwrap();
                    std::fs::rename(&link, src.join("a")).unwrap();
                    std::fs::remove_file(src.join("a")).unwrap();
                    std::fs::rename(&real, src.join("a")).unwrap();
                }
            })
        };
        for i in 0..5_000 {
            let _ = scope.save(&src.join("a/SKILL.md"), format!("save {i}").as_bytes(), None);
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        flipper.join().unwrap();
        let names: Vec<_> = std::fs::read_dir(&outside).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from("secret.md")]);
    }
}
