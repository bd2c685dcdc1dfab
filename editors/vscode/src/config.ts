// Pure helpers (no `vscode` import), so `node --test` can exercise them outside VS Code.

import * as path from "node:path";

/** The agents `skillkit agents` lists, in its order: the values of the `skillkit.agent` setting. */
export const AGENTS = [
  "spec",
  "agentskills",
  "claude-code",
  "codex",
  "gemini-cli",
  "copilot-cli",
  "deepagents",
  "deepagents-v1",
  "deepagents-v2",
  "harness9",
  "opencode",
  "cline",
  "qwen-code",
  "letta-code",
  "kimi-cli",
  "mistral-vibe",
] as const;

/** Settings whose change needs a new server process (the agent travels in `initialize`). */
export const RESTART_SETTINGS = ["skillkit.path", "skillkit.agent"] as const;

/** The URI scheme of the prompt previews the server opens with `window/showDocument`. */
export const PROMPT_SCHEME = "skillkit-prompt";
/** Request: `{ uri: "skillkit-prompt://<agent>" }` → `{ text: string }`. */
export const PROMPT_REQUEST = "skillkit/prompt";
/** Notification (no params): every open prompt preview is stale. */
export const PROMPTS_CHANGED = "skillkit/promptsChanged";

export interface Settings {
  /** `skillkit.path`: the executable. */
  path: string;
  /**
   * `skillkit.agent` when the user set it (passed through as is: the server reports an unknown
   * one); `undefined` leaves the choice to the server: the project's `skillkit.toml`, else `spec`.
   */
  agent: string | undefined;
}

export interface Environment {
  /** `process.env.PATH` (or `Path` on Windows). */
  PATH?: string;
  /** `process.env.PATHEXT`, Windows only. */
  PATHEXT?: string;
  platform: NodeJS.Platform;
  home?: string;
  workspaceFolder?: string;
  /** Whether a file exists there and can be executed. */
  isExecutable(file: string): boolean;
}

export type ServerCommand =
  | { ok: true; command: string; args: string[]; cwd?: string }
  | { ok: false; error: string };

/**
 * The settings with the path's default filled in (a blank value counts as unset). `agent` is the
 * value the user set, in any scope, not the setting's default.
 */
export function normalizeSettings(raw: { path?: unknown; agent?: unknown }): Settings {
  const str = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);
  return { path: str(raw.path) ?? "skillkit", agent: str(raw.agent) };
}

/** `~/…` and `${workspaceFolder}` expanded; a relative path taken from the workspace folder. */
export function expandPath(raw: string, env: Pick<Environment, "home" | "workspaceFolder" | "platform">): string {
  const p = env.platform === "win32" ? path.win32 : path.posix;
  let out = raw;
  if (env.workspaceFolder !== undefined) out = out.split("${workspaceFolder}").join(env.workspaceFolder);
  if (env.home !== undefined && (out === "~" || out.startsWith("~/") || (env.platform === "win32" && out.startsWith("~\\")))) {
    out = p.join(env.home, out.slice(1));
  }
  if (isBareName(out, env.platform)) return out;
  if (!p.isAbsolute(out) && env.workspaceFolder !== undefined) out = p.resolve(env.workspaceFolder, out);
  return out;
}

function isBareName(s: string, platform: NodeJS.Platform): boolean {
  return !s.includes("/") && !(platform === "win32" && s.includes("\\"));
}

/** Where `name` is found on `PATH` (with `PATHEXT` on Windows), as a shell would find it. */
export function whichOnPath(name: string, env: Environment): string | undefined {
  const p = env.platform === "win32" ? path.win32 : path.posix;
  const dirs = (env.PATH ?? "").split(env.platform === "win32" ? ";" : ":").filter((d) => d !== "");
  const exts =
    env.platform === "win32"
      ? ["", ...(env.PATHEXT ?? ".COM;.EXE;.BAT;.CMD").split(";").filter((e) => e !== "")]
      : [""];
  for (const dir of dirs) {
    for (const ext of exts) {
      const candidate = p.join(dir, name + ext);
      if (env.isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

/** The process to start: `<skillkit.path> lsp`, or why it cannot be started. */
export function serverCommand(settings: Settings, env: Environment): ServerCommand {
  const expanded = expandPath(settings.path, env);
  const cwd = env.workspaceFolder;
  if (isBareName(expanded, env.platform)) {
    const found = whichOnPath(expanded, env);
    if (found === undefined) {
      return {
        ok: false,
        error: `Cannot find \`${expanded}\` on PATH. Install skillkit (cargo install --path crates/skillkit-cli) or set \`skillkit.path\` to the executable.`,
      };
    }
    return { ok: true, command: found, args: ["lsp"], cwd };
  }
  if (!env.isExecutable(expanded)) {
    return { ok: false, error: `\`skillkit.path\` is \`${expanded}\`, which is not an executable file.` };
  }
  return { ok: true, command: expanded, args: ["lsp"], cwd };
}

/** The `initializationOptions` of `initialize`: `{ agent }`, or `{}` to let the project decide. */
export function initializationOptions(settings: Settings): { agent?: string } {
  return settings.agent === undefined ? {} : { agent: settings.agent };
}

/** Whether a configuration change needs the server restarted. */
export function needsRestart(affectsConfiguration: (section: string) => boolean): boolean {
  return RESTART_SETTINGS.some((s) => affectsConfiguration(s));
}
