//! The files a library ships that the tool obeys — session scripts, eval suites, `skillkit.toml` /
//! `[tool.skillkit]`, baselines, record stores — and the paths written inside them. A cloned
//! library is hostile input (see `docs/security.md`, "Opening a library you did not write"), so:
//!
//! - **One rule for the paths they name** ([`confine`]): a path read from such a file resolves,
//!   after symlinks, inside that file's *project* ([`project_of`]: the nearest folder at or above
//!   the file that holds a configuration or a repository), or it is refused with an [`Escape`]
//!   that names the key. Only paths a person types on the command line or picks in the app may
//!   lead outside.
//! - **One reader** ([`read`], [`read_text`]): opened non-blocking (a FIFO cannot hang it),
//!   checked on the open file to be a regular file of a real file system (procfs, sysfs and the
//!   other kernel file systems are refused outright: `/proc/self/environ` is a regular file of
//!   size 0 that holds the environment), and read up to a limit, never further (`/dev/zero` and a
//!   growing file stop there).
//! - **One write** ([`save`]): the engine's atomic save (an exclusive temporary file in the same
//!   folder, renamed over the target) inside a folder the caller names, so a symlink or a path a
//!   library ships cannot turn a write into one outside it.

use crate::scope::{resolve_lenient, Scope, ScopeError};
use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// The largest script, suite, configuration or baseline [`read`] takes by default (the skill
/// files' own limit).
pub const MAX_BYTES: u64 = crate::scope::MAX_FILE_BYTES;

/// The files whose folder is a project: a configuration, or a repository's `.git`.
const PROJECT_MARKERS: [&str; 3] = ["skillkit.toml", "pyproject.toml", ".git"];

/// The project the file (or folder) `file` belongs to: the nearest folder at or above it that
/// holds a `skillkit.toml`, a `pyproject.toml` or a `.git`; the file's own folder when none does.
/// Always a real path (symlinks resolved) when the folder exists.
pub fn project_of(file: &Path) -> PathBuf {
    let absolute = std::path::absolute(file).unwrap_or_else(|_| file.to_path_buf());
    let start = if absolute.is_dir() {
        absolute.clone()
    } else {
        absolute.parent().map_or_else(|| absolute.clone(), Path::to_path_buf)
    };
    let start = resolve_lenient(&start);
    start
        .ancestors()
        .find(|dir| PROJECT_MARKERS.iter().any(|m| std::fs::symlink_metadata(dir.join(m)).is_ok()))
        .unwrap_or(&start)
        .to_path_buf()
}

/// A path a library's file names that leads outside its project.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Escape {
    /// The key the path is the value of (`sources`, `baseline`, …).
    pub key: String,
    /// The path as the file wrote it.
    pub named: String,
    /// The project it must stay inside.
    pub project: PathBuf,
}

impl std::fmt::Display for Escape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "`{}`: `{}` leads outside the project {}; a file of a library may name only paths inside its project (a `skillkit.toml` or `.git` marks a project's root folder; give a path outside on the command line instead)",
            self.key,
            self.named,
            self.project.display()
        )
    }
}

impl std::error::Error for Escape {}

/// `named`, the value of `key` in a file of a library, resolved against `base` (the file's
/// folder), when it lies inside `project` once every symlink on it that exists is resolved; the
/// path is returned joined as written (`base/named`, `.` and `..` kept for the caller's display),
/// so a path that does not exist yet (a source to be created) is judged by its real parent. An
/// absolute path, a `..` that climbs out, or a symlink that leads out is an [`Escape`].
pub fn confine(project: &Path, base: &Path, key: &str, named: &str) -> Result<PathBuf, Escape> {
    let escape = || Escape { key: key.to_string(), named: named.to_string(), project: project.to_path_buf() };
    let dot = |p: &Path| if p.as_os_str().is_empty() { Path::new(".").to_path_buf() } else { p.to_path_buf() };
    let (project, base) = (dot(project), dot(base));
    let joined: PathBuf = base.join(named).components().collect();
    let project_real = std::fs::canonicalize(&project)
        .unwrap_or_else(|_| resolve_lenient(&std::path::absolute(&project).unwrap_or_else(|_| project.clone())));
    let real = resolve_lenient(&std::path::absolute(&joined).unwrap_or_else(|_| joined.clone()));
    // `resolve_lenient` pops a `..` past a component that does not exist yet; a `..` left at the
    // start means the path climbed above the root.
    if real.components().any(|c| matches!(c, Component::ParentDir)) || !real.starts_with(&project_real) {
        return Err(escape());
    }
    Ok(joined)
}

/// The bytes of the regular file at `path`, at most `limit` of them (see the module docs: no
/// FIFO, device, socket, folder or kernel file system's file, never more than `limit` bytes).
pub fn read(path: &Path, limit: u64) -> Result<Vec<u8>, ScopeError> {
    let (file, size) = open(path)?;
    if size > limit {
        return Err(ScopeError::TooLarge { path: path.to_path_buf(), size, limit });
    }
    let mut bytes = Vec::with_capacity(size as usize);
    (&file).take(limit + 1).read_to_end(&mut bytes).map_err(|e| crate::scope::io_error(path, &e))?;
    if bytes.len() as u64 > limit {
        return Err(ScopeError::TooLarge { path: path.to_path_buf(), size: bytes.len() as u64, limit });
    }
    Ok(bytes)
}

/// `path` opened for reading without blocking (the open of a FIFO with no writer would wait
/// forever), then checked on the open file: a regular file, not on a kernel file system.
fn open(path: &Path) -> Result<(std::fs::File, u64), ScopeError> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags((rustix::fs::OFlags::NONBLOCK | rustix::fs::OFlags::NOCTTY).bits() as i32);
    }
    let io = |e: std::io::Error| crate::scope::io_error(path, &e);
    let file = options.open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    let not_a_file = |kind: &'static str| ScopeError::NotAFile { path: path.to_path_buf(), kind };
    if !meta.is_file() {
        return Err(not_a_file(crate::read::kind_of(&meta.file_type()).unwrap_or("special file")));
    }
    #[cfg(unix)]
    if let Some(fs) = crate::scope::kernel_file_system(&file) {
        return Err(not_a_file(fs));
    }
    Ok((file, meta.len()))
}

/// Why a file was not read, without its path (for a message that names the file already).
pub fn reason(e: &ScopeError) -> String {
    match e {
        ScopeError::NotAFile { kind, .. } => format!("a {kind}, not a regular file: not read"),
        ScopeError::TooLarge { size, limit, .. } => format!("{size} bytes, over the limit of {limit} bytes: not read"),
        ScopeError::NotUtf8 { valid_up_to, .. } => format!("not UTF-8 (byte {valid_up_to})"),
        ScopeError::Missing { .. } => "no such file".into(),
        ScopeError::Io { message, .. } => message.clone(),
        other => other.to_string(),
    }
}

/// [`read`] as UTF-8 text.
pub fn read_text(path: &Path, limit: u64) -> Result<String, ScopeError> {
    String::from_utf8(read(path, limit)?)
        .map_err(|e| ScopeError::NotUtf8 { path: path.to_path_buf(), valid_up_to: e.utf8_error().valid_up_to() })
}

/// [`read_text`], `Ok(None)` when nothing is there (a missing optional file), an error for
/// anything else that is not a readable regular file — a FIFO or `/dev/zero` is said, not
/// silently taken for "no file".
pub fn read_text_if_present(path: &Path, limit: u64) -> Result<Option<String>, ScopeError> {
    match read_text(path, limit) {
        Ok(t) => Ok(Some(t)),
        Err(ScopeError::Missing { .. }) if std::fs::symlink_metadata(path).is_err() => Ok(None),
        Err(e) => Err(e),
    }
}

/// Writes `bytes` to `path` with the engine's atomic save, only inside the folder `within`: the
/// folder of `path` must be inside it after symlinks, and a symlink at `path` is saved through
/// only when its target is inside it too (else refused, never followed out).
pub fn save(path: &Path, bytes: &[u8], within: &Path) -> Result<(), ScopeError> {
    let within = if within.as_os_str().is_empty() { Path::new(".") } else { within };
    Scope::new(&[within.to_path_buf()]).save(path, bytes, None).map(|_| ())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn the_project_is_the_nearest_folder_with_a_configuration_or_a_repository() {
        let t = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(t.path()).unwrap();
        std::fs::create_dir_all(root.join("repo/.git")).unwrap();
        std::fs::create_dir_all(root.join("repo/lib/sessions")).unwrap();
        std::fs::write(root.join("repo/lib/sessions/a.yaml"), "x").unwrap();
        assert_eq!(project_of(&root.join("repo/lib/sessions/a.yaml")), root.join("repo"));
        std::fs::write(root.join("repo/lib/skillkit.toml"), "").unwrap();
        assert_eq!(project_of(&root.join("repo/lib/sessions/a.yaml")), root.join("repo/lib"));
        // No marker anywhere below the temporary folder's ancestors that hold one: the file's folder.
        std::fs::create_dir_all(root.join("loose")).unwrap();
        std::fs::write(root.join("loose/s.yaml"), "x").unwrap();
        let p = project_of(&root.join("loose/s.yaml"));
        assert!(root.join("loose").starts_with(&p), "{}", p.display());
    }

    #[test]
    fn paths_named_inside_stay_inside_after_symlinks() {
        let t = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(t.path()).unwrap();
        let project = root.join("p");
        std::fs::create_dir_all(project.join("skills")).unwrap();
        std::fs::create_dir_all(project.join("sessions")).unwrap();
        std::fs::create_dir_all(root.join("secret")).unwrap();
        symlink(root.join("secret"), project.join("out")).unwrap();
        let base = project.join("sessions");
        assert_eq!(confine(&project, &base, "sources", "../skills").unwrap(), base.join("../skills"));
        assert!(confine(&project, &base, "sources", "../new-folder").is_ok(), "a folder to be created");
        for bad in ["/etc", "/proc/self", "../..", "../../secret", "../out", "../out/x", "../../../../../../.."] {
            let e = confine(&project, &base, "sources", bad).unwrap_err();
            assert_eq!((e.key.as_str(), e.named.as_str()), ("sources", bad));
            assert!(e.to_string().starts_with(&format!("`sources`: `{bad}` leads outside the project ")), "{e}");
        }
    }

    #[test]
    fn the_reader_refuses_what_is_not_a_regular_file_and_stops_at_its_limit() {
        let t = tempfile::tempdir().unwrap();
        let fifo = t.path().join("fifo");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
            0,
        )
        .unwrap();
        assert!(matches!(read(&fifo, 10), Err(ScopeError::NotAFile { .. }) | Err(ScopeError::Io { .. })));
        assert!(read_text_if_present(&fifo, 10).is_err(), "a FIFO is said, not taken for no file");
        symlink("/dev/zero", t.path().join("zero")).unwrap();
        assert!(read(&t.path().join("zero"), 1 << 20).is_err());
        let e = read(Path::new("/proc/self/environ"), 1 << 20).unwrap_err();
        assert!(e.to_string().contains("procfs"), "{e}");
        symlink("/proc/self/environ", t.path().join("env")).unwrap();
        assert!(read(&t.path().join("env"), 1 << 20).is_err());
        // A source given on the command line may be anywhere, but not the kernel's files.
        let scope = Scope::new(&[PathBuf::from("/proc/self")]);
        let e = scope.read(Path::new("/proc/self/environ"), 1 << 20).unwrap_err();
        assert!(e.to_string().contains("procfs"), "{e}");
        std::fs::write(t.path().join("big"), vec![b'x'; 100]).unwrap();
        assert!(matches!(read(&t.path().join("big"), 99), Err(ScopeError::TooLarge { .. })));
        assert_eq!(read(&t.path().join("big"), 100).unwrap().len(), 100);
        assert_eq!(read_text_if_present(&t.path().join("none"), 10).unwrap(), None);
        symlink(t.path().join("nowhere"), t.path().join("dangling")).unwrap();
        assert!(read_text_if_present(&t.path().join("dangling"), 10).is_err(), "a dangling link is said");
    }

    #[test]
    fn saves_stay_inside_and_do_not_follow_a_link_out() {
        let t = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(t.path()).unwrap();
        std::fs::create_dir_all(root.join("p")).unwrap();
        std::fs::write(root.join("victim"), "precious").unwrap();
        symlink(root.join("victim"), root.join("p/baseline.json")).unwrap();
        assert!(save(&root.join("p/baseline.json"), b"{}", &root.join("p")).is_err());
        assert!(save(&root.join("victim"), b"{}", &root.join("p")).is_err());
        assert!(save(&root.join("p/../victim"), b"{}", &root.join("p")).is_err());
        assert_eq!(std::fs::read_to_string(root.join("victim")).unwrap(), "precious");
        save(&root.join("p/ok.json"), b"{}", &root.join("p")).unwrap();
        assert_eq!(std::fs::read_to_string(root.join("p/ok.json")).unwrap(), "{}");
    }
}
