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
use skillkit::matrix::Matrix;
use wire::*;

/// The argument type of a command as the list writes it: `(())` or `(Type)`.
macro_rules! arg_type {
    (()) => {
        ()
    };
    ($t:ty) => {
        $t
    };
}

/// Calls the state's method for a command: with no argument when it takes `()`.
macro_rules! call {
    ($state:expr, $name:ident, (()), $args:ident) => {{
        let () = $args;
        $state.$name()
    }};
    ($state:expr, $name:ident, $t:tt, $args:ident) => {
        $state.$name($args)
    };
}

/// Expands the command list into the Tauri functions (each fetches the state and calls its
/// method of the same name), the invoke handler, the command names and their types.
macro_rules! app_commands {
    ($($name:ident $args:tt -> $ret:ty;)*) => {
        /// The Tauri commands, one per line of `command_list.rs`: each calls the [`AppState`]
        /// method of its name, off the main thread.
        pub mod handlers {
            use super::*;
            use tauri::Manager;
            $(
                #[tauri::command(async)]
                pub fn $name(app: tauri::AppHandle, args: arg_type!$args) -> Result<$ret, AppError> {
                    call!(app.state::<AppState>(), $name, $args, args)
                }
            )*
        }

        /// Every command's name, in declaration order.
        pub const COMMANDS: &[&str] = &[$(stringify!($name)),*];

        fn invoke_handler() -> impl Fn(tauri::ipc::Invoke<tauri::Wry>) -> bool + Send + Sync + 'static {
            tauri::generate_handler![$(handlers::$name),*]
        }

        /// Each command's name with the TypeScript names of its argument and reply types.
        pub fn command_types(cfg: &ts_rs::Config) -> Vec<(&'static str, String, String)> {
            use ts_rs::TS;
            vec![$((stringify!($name), <arg_type!$args as TS>::name(cfg), <$ret as TS>::name(cfg))),*]
        }
    };
}
include!("command_list.rs");

/// The permissions granted besides the app's commands (the `app-commands` set that `build.rs`
/// generates from the same list): listening to the host's events (see `events.rs`) and the
/// folder dialog that adds a source.
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
                Ok(dir) => {
                    app.state::<AppState>().remember_in(dir.join(last::FILE));
                    app.state::<AppState>().evals.remember_in(dir.join(commands::SETTINGS_FILE));
                }
                Err(e) => eprintln!("skill-studio: no config folder, the library is not remembered: {e}"),
            }
            let handle = app.handle().clone();
            app.state::<AppState>().notify_with(std::sync::Arc::new(move |changed: events::LibraryChanged| {
                use tauri::Emitter;
                if let Err(e) = handle.emit(events::LIBRARY_CHANGED, changed) {
                    eprintln!("skill-studio: cannot emit {}: {e}", events::LIBRARY_CHANGED);
                }
            }));
            let handle = app.handle().clone();
            app.state::<AppState>().evals.notify_with(std::sync::Arc::new(move |progress: events::EvalProgress| {
                use tauri::Emitter;
                if let Err(e) = handle.emit(events::EVAL_PROGRESS, progress) {
                    eprintln!("skill-studio: cannot emit {}: {e}", events::EVAL_PROGRESS);
                }
            }));
            match app.path().app_data_dir() {
                Ok(dir) => app.state::<AppState>().keep_drafts_in(dir.join("drafts")),
                Err(e) => eprintln!("skill-studio: no data folder, unsaved text is not kept: {e}"),
            }
            Ok(())
        })
        .invoke_handler(invoke_handler())
}
