// tauri.conf.json lives at the repository root (`config_path` is relative to this crate; Tauri
// reads the file from that path). Each app command is declared to the permission system, so the
// UI can call only those that `capabilities/default.json` grants.
macro_rules! app_commands {
    ($($name:ident($args:ty) -> $ret:ty;)*) => {
        const COMMANDS: &[&str] = &[$(stringify!($name)),*];
    };
}
include!("src/command_list.rs");

fn main() {
    println!("cargo:rerun-if-changed=src/command_list.rs");
    let attributes = tauri_build::Attributes::new()
        .config_path("../tauri.conf.json")
        .app_manifest(tauri_build::AppManifest::new().commands(COMMANDS));
    tauri_build::try_build(attributes).expect("failed to run tauri-build");
}
