//! Skill Studio's desktop shell: each Tauri command is one call into the use cases of
//! `skillkit-api` (a method of its `Studio`), which return typed replies; the shell gives them a
//! host (`host.rs`: the keyring, the app's folders, the window's events). No use case lives here.
//! The command surface is declared once in `command_list.rs`; the TypeScript bindings
//! (`ui/src/lib/bindings.ts`) are generated from it and the API's types (`bindings::generate`).

pub mod bindings;
pub mod host;

use skillkit::matrix::Matrix;
use skillkit_api::settings::ProviderSettings;
use skillkit_api::studio::*;
use skillkit_api::views::*;
use skillkit_api::{AppError, Startup, Studio};

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
        /// The Tauri commands, one per line of `command_list.rs`: each calls the [`Studio`]
        /// method of its name, off the main thread.
        pub mod handlers {
            use super::*;
            use tauri::Manager;
            $(
                #[tauri::command(async)]
                pub fn $name(app: tauri::AppHandle, args: arg_type!$args) -> Result<$ret, AppError> {
                    call!(app.state::<Studio>(), $name, $args, args)
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
    let host = std::sync::Arc::new(host::TauriHost::new());
    let studio = if explicit { Studio::new(startup, host.clone()) } else { Studio::remembering(startup, host.clone()) };
    tauri::Builder::default()
        .plugin(tauri_plugin_dialog::init())
        .manage(studio)
        .setup(move |app| {
            host.attach(app.handle().clone());
            Ok(())
        })
        .invoke_handler(invoke_handler())
}
