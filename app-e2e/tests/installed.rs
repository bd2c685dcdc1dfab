//! Skill Studio as a user installs it: the packages `scripts/package` makes, unpacked as a
//! package manager would (`dpkg-deb -x`, `--appimage-extract`) into temporary folders, their
//! metadata and declared dependencies checked against what the binary really links, and the
//! unpacked binary started on a copy of `skills/` and driven through WebDriver until the library
//! is open. Run after `scripts/package --debug deb rpm` (scripts/test does), under a display.
//!
//! The bundles are looked for in `<target>/debug/bundle/` (`SKILL_STUDIO_BUNDLES` names another
//! folder, such as `<target>/release/bundle/` after a release `scripts/package`). A missing
//! `.deb` fails the test: it never passes on nothing. The AppImage test is ignored by default
//! (named as such in the test output) because Tauri's AppImage bundler needs linuxdeploy, which
//! it downloads from GitHub; where that works, `scripts/package --debug appimage` then
//! `cargo test -p app-e2e --test installed -- --ignored` runs it.

use app_e2e::*;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Where `scripts/package` left the bundles.
fn bundles() -> PathBuf {
    std::env::var_os("SKILL_STUDIO_BUNDLES").map(PathBuf::from).unwrap_or_else(|| target_dir().join("debug/bundle"))
}

/// The one file of `kind` (`deb`, `rpm`, `appimage`) in the bundle folder; fails the test when
/// there is none or more than one (an old version left beside the new one would be ambiguous).
fn bundle(kind: &str, ext: &str) -> PathBuf {
    let dir = bundles().join(kind);
    let found: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}; run `scripts/package --debug {kind}` first", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    assert_eq!(found.len(), 1, "expected one .{ext} in {}, found {found:?}", dir.display());
    found.into_iter().next().unwrap()
}

/// Runs a command, failing the test with its output when it fails; returns its stdout.
fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The sonames an ELF file names as `NEEDED`: what it links directly (ldd also lists what those
/// libraries link in turn, which their own packages declare).
fn needed(elf: &Path) -> Vec<String> {
    run(Command::new("readelf").args(["-d", "--wide"]).arg(elf))
        .lines()
        .filter(|l| l.contains("(NEEDED)"))
        .filter_map(|l| Some(l.split_once('[')?.1.split_once(']')?.0.to_string()))
        .collect()
}

/// Where the dynamic loader finds each library `elf` links (`ldd`, with `lib_path` searched first
/// as an AppImage's launcher does); fails the test on any library it cannot find.
fn resolved(elf: &Path, lib_path: Option<&Path>) -> Vec<(String, PathBuf)> {
    let mut cmd = Command::new("ldd");
    cmd.arg(elf);
    if let Some(p) = lib_path {
        cmd.env("LD_LIBRARY_PATH", p);
    }
    let text = run(&mut cmd);
    assert!(!text.contains("not found"), "{} links a library this machine lacks:\n{text}", elf.display());
    // "libgtk-3.so.0 => /lib/x86_64-linux-gnu/libgtk-3.so.0 (0x…)", or for the loader itself
    // "/lib64/ld-linux-x86-64.so.2 (0x…)".
    text.lines()
        .filter_map(|l| {
            let l = l.trim();
            let (name, path) = match l.split_once(" => ") {
                Some((name, rest)) => (name.to_string(), rest.split(" (").next()?.trim()),
                None => {
                    let path = l.split(" (").next()?.trim();
                    (Path::new(path).file_name()?.to_str()?.to_string(), path)
                }
            };
            path.starts_with('/').then(|| (name, PathBuf::from(path)))
        })
        .collect()
}

/// The Debian package that owns a file (`dpkg -S`), following the /lib → /usr/lib merge.
fn owner(path: &Path) -> String {
    let real = path.canonicalize().unwrap();
    for p in [path.to_path_buf(), real.clone(), Path::new("/usr").join(real.strip_prefix("/").unwrap())] {
        let out = Command::new("dpkg").arg("-S").arg(&p).output().unwrap();
        if out.status.success() {
            let text = String::from_utf8(out.stdout).unwrap();
            // "libgtk-3-0:amd64: /usr/lib/x86_64-linux-gnu/libgtk-3.so.0"
            return text.split(": ").next().unwrap().split(':').next().unwrap().to_string();
        }
    }
    panic!("no Debian package owns {}", path.display())
}

/// A PNG's width and height (its IHDR chunk).
fn png_size(file: &Path) -> (u32, u32) {
    let bytes = std::fs::read(file).unwrap();
    assert_eq!(&bytes[1..4], b"PNG", "{} is not a PNG", file.display());
    let be = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (be(16), be(20))
}

/// The desktop entry, icons and binary every package installs under `root` (its `/`): the entry
/// starts the installed binary with the folders it is handed and offers the app for folders, and
/// each icon size the desktop looks for is there at that size.
fn check_installed_tree(root: &Path) -> PathBuf {
    let bin = root.join("usr/bin/skill-studio");
    assert!(bin.is_file(), "{} missing", bin.display());
    let entry = std::fs::read_to_string(root.join("usr/share/applications/Skill Studio.desktop")).unwrap();
    let field = |key: &str| {
        entry
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{key}=")))
            .unwrap_or_else(|| panic!("no {key} in:\n{entry}"))
    };
    assert_eq!(field("Name"), "Skill Studio");
    assert_eq!(field("Exec"), "skill-studio %F");
    assert_eq!(field("Icon"), "skill-studio");
    assert_eq!(field("MimeType"), "inode/directory;");
    assert!(field("Categories").split(';').any(|c| c == "Development"), "{entry}");
    assert!(!field("Comment").is_empty());
    assert!(!entry.contains("{{"), "a template field was left unfilled:\n{entry}");
    for size in [16, 24, 32, 48, 64, 128, 256, 512] {
        let icon = root.join(format!("usr/share/icons/hicolor/{size}x{size}/apps/skill-studio.png"));
        assert!(icon.is_file(), "{} missing", icon.display());
        assert_eq!(png_size(&icon), (size, size), "{}", icon.display());
    }
    // The example library the app opens the first time, as the repository has it.
    let examples = e2e_root().join("skills");
    let mut shipped = 0;
    for skill in std::fs::read_dir(&examples).unwrap().flatten().filter(|e| e.path().join("SKILL.md").is_file()) {
        let installed = root.join("usr/lib/Skill Studio/skills").join(skill.file_name()).join("SKILL.md");
        let want = std::fs::read(skill.path().join("SKILL.md")).unwrap();
        assert_eq!(std::fs::read(&installed).ok(), Some(want), "{} is not the repository's", installed.display());
        shipped += 1;
    }
    assert!(shipped > 0);
    bin
}

/// The repository's top folder.
fn e2e_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// Starts the unpacked `app` (the binary, or an AppImage's launcher) on a copy of `skills/`
/// through tauri-driver, and waits until the Library pane lists every skill of the copy.
async fn opens_the_library(app: &Path, port: u16) {
    let (tmp, library) = library();
    let skills = skill_count(&library);
    assert!(skills > 0);
    let _driver = Driver::start(tmp.path(), port);
    let c = connect(app, &[&library], port).await;
    wait_for("the library", || async { count(&c, "[data-testid=skill]").await == skills }).await;
    let title = c.title().await;
    c.close().await.ok();
    assert_eq!(title.unwrap(), "Skill Studio");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_deb_declares_what_its_binary_links_and_opens_the_library_once_unpacked() {
    let deb = bundle("deb", "deb");
    let field = |name: &str| run(Command::new("dpkg-deb").args(["-f"]).arg(&deb).arg(name)).trim().to_string();
    assert_eq!(field("Package"), "skill-studio");
    assert_eq!(field("Version"), env!("CARGO_PKG_VERSION"), "the version is the crates'");
    assert_eq!(field("Architecture"), "amd64");
    assert!(!field("Description").is_empty());

    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("root");
    run(Command::new("dpkg-deb").arg("-x").arg(&deb).arg(&root));
    let bin = check_installed_tree(&root);

    // Every declared dependency is a package installed here at a version it accepts (the app
    // below runs on exactly these), and every library the binary links comes from a declared
    // package: nothing the app needs is left for the user to find.
    let depends = field("Depends");
    let mut declared = BTreeSet::new();
    for dep in depends.split(',').map(str::trim) {
        let (name, version) = match dep.split_once(" (") {
            Some((n, v)) => (n, Some(v.trim_end_matches(')'))),
            None => (dep, None),
        };
        let installed = run(Command::new("dpkg-query").args(["-W", "-f=${Version}", name]));
        if let Some(v) = version {
            let (op, v) = v.split_once(' ').unwrap();
            let op = match op {
                ">=" => "ge",
                "<=" => "le",
                "=" => "eq",
                ">>" => "gt",
                "<<" => "lt",
                _ => panic!("unknown relation in {dep}"),
            };
            let ok = Command::new("dpkg").args(["--compare-versions", &installed, op, v]).status().unwrap();
            assert!(ok.success(), "{dep}: this machine has {installed}");
        }
        declared.insert(name.to_string());
    }
    let libs = resolved(&bin, None);
    for soname in needed(&bin) {
        let path = &libs.iter().find(|(n, _)| *n == soname).unwrap_or_else(|| panic!("ldd did not list {soname}")).1;
        let package = owner(path);
        assert!(declared.contains(&package), "{soname} ({package}) is linked but not in Depends: {depends}");
    }

    opens_the_library(&bin, 4654).await;
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs an AppImage: `scripts/package --debug appimage`, whose linuxdeploy Tauri's bundler downloads from GitHub"]
async fn the_appimage_carries_what_its_binary_links_and_opens_the_library_once_extracted() {
    let image = bundle("appimage", "AppImage");
    let tmp = tempfile::tempdir().unwrap();
    // The runtime extracts into `squashfs-root` in the current folder.
    run(Command::new(&image).arg("--appimage-extract").current_dir(tmp.path()));
    let root = tmp.path().join("squashfs-root");
    let bin = check_installed_tree(&root);
    // The image's launcher puts its own libraries first: with them, nothing the binary links
    // may be missing (the image leaves glibc and the graphics stack to the system, by design).
    resolved(&bin, Some(&root.join("usr/lib")));
    let webkit = needed(&bin).into_iter().find(|s| s.starts_with("libwebkit2gtk-4.1"));
    let webkit = webkit.expect("the binary links WebKitGTK");
    assert!(
        walk(&root.join("usr/lib")).iter().any(|p| p.file_name().is_some_and(|n| n == webkit.as_str())),
        "WebKitGTK ({webkit}) is not in the image"
    );
    opens_the_library(&root.join("AppRun"), 4664).await;
}

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}
