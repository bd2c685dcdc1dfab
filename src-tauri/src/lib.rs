//! Skill Studio's desktop shell: Tauri commands that turn a UI request into a `skillkit` call and
//! the engine's result into a typed reply. No linting, rendering or simulation happens here.
//! The command surface is declared once in `command_list.rs`; the TypeScript bindings
//! (`ui/src/lib/bindings.ts`) are generated from it and its types (`bindings::generate`).

pub mod bindings;
pub mod commands;
pub mod drafts;
pub mod error;
pub mod events;
pub mod files;
pub mod last;
pub mod opened;
pub mod wire;

use commands::*;
use error::AppError;
use wire::*;

/// Expands the command list into the invoke handler, the command names and their types.
macro_rules! app_commands {
    ($($name:ident($args:ty) -> $ret:ty;)*) => {
        /// Every command's name, in declaration order.
        pub const COMMANDS: &[&str] = &[$(stringify!($name)),*];

        fn invoke_handler() -> impl Fn(tauri::ipc::Invoke<tauri::Wry>) -> bool + Send + Sync + 'static {
            tauri::generate_handler![$(commands::$name),*]
        }

        /// Each command's name with the TypeScript names of its argument and reply types.
        pub fn command_types(cfg: &ts_rs::Config) -> Vec<(&'static str, String, String)> {
            use ts_rs::TS;
            vec![$((stringify!($name), <$args as TS>::name(cfg), <$ret as TS>::name(cfg))),*]
        }

        // Every command takes one `args` value and returns `Result<reply, AppError>`: checked here
        // so that the list and the functions cannot drift apart.
        #[allow(dead_code)]
        fn signatures_match(app: tauri::AppHandle) {
            $(let _: fn(tauri::AppHandle, $args) -> Result<$ret, AppError> = commands::$name;)*
            let _ = app;
        }
    };
}
include!("command_list.rs");

/// The permissions granted besides the app's commands: listening to the host's events (see
/// `events.rs`).
/// `events.rs`) and the folder dialog that adds a source.
pub const PLUGIN_PERMISSIONS: &[&str] = &["core:event:allow-listen", "core:event:allow-unlisten", "dialog:allow-open"];

/// The app with its state and commands, ready to `run` with the generated context. With
/// `explicit` sources, the app opens them; otherwise it reopens the library it opened last (the
/// first time, `startup`'s) and remembers each one it opens, in its config folder.
pub fn builder(startup: Startup, explicit: bool) -> tauri::Builder<tauri::Wry> {
    use tauri::Manager;
    let state = if explicit { AppState::new(startup) } else { AppState::remembering(startup, None) };
    tauri::Builder::default()
        .plugin(tauri_plugin_dialog::init())
        .manage(state)
        .setup(|app| {
            match app.path().app_config_dir() {
                Ok(dir) => app.state::<AppState>().remember_in(dir.join(last::FILE)),
                Err(e) => eprintln!("skill-studio: no config folder, the library is not remembered: {e}"),
            }
            match app.path().app_data_dir() {
                Ok(dir) => app.state::<AppState>().keep_drafts_in(dir.join("drafts")),
                Err(e) => eprintln!("skill-studio: no data folder, unsaved text is not kept: {e}"),
            }
            Ok(())
        })
        .invoke_handler(invoke_handler())
}
