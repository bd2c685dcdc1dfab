// Unit tests of src/config.ts (the pure helpers), compiled on the fly with esbuild.
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const scratch = mkdtempSync(join(tmpdir(), "skillkit-vscode-test-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

const outfile = join(scratch, "config.mjs");
await build({ entryPoints: [join(root, "src/config.ts")], outfile, bundle: true, platform: "node", format: "esm", logLevel: "error" });
const config = await import(pathToFileURL(outfile).href);

/** An environment whose executables are exactly `files`. */
const env = (files, extra = {}) => ({
  PATH: "/usr/local/bin:/usr/bin:/home/me/.cargo/bin",
  platform: "linux",
  home: "/home/me",
  workspaceFolder: "/work/skills",
  isExecutable: (f) => files.includes(f),
  ...extra,
});

test("the path defaults to skillkit; an unset or blank agent stays unset", () => {
  assert.deepEqual(config.normalizeSettings({}), { path: "skillkit", agent: undefined });
  assert.deepEqual(config.normalizeSettings({ path: "  ", agent: "" }), { path: "skillkit", agent: undefined });
  assert.deepEqual(config.normalizeSettings({ path: " /opt/skillkit ", agent: "codex" }), { path: "/opt/skillkit", agent: "codex" });
  assert.deepEqual(config.normalizeSettings({ path: 42, agent: null }), { path: "skillkit", agent: undefined });
});

test("a bare name is looked up on PATH, first match wins", () => {
  const found = config.serverCommand({ path: "skillkit", agent: "spec" }, env(["/usr/bin/skillkit", "/home/me/.cargo/bin/skillkit"]));
  assert.deepEqual(found, { ok: true, command: "/usr/bin/skillkit", args: ["lsp"], cwd: "/work/skills" });
});

test("a name missing from PATH is an error that names the setting", () => {
  const missing = config.serverCommand({ path: "skillkit", agent: "spec" }, env([]));
  assert.equal(missing.ok, false);
  assert.match(missing.error, /Cannot find `skillkit` on PATH/);
  assert.match(missing.error, /skillkit\.path/);
});

test("paths: ~/, ${workspaceFolder} and relative ones are expanded; a non-executable is an error", () => {
  const files = ["/home/me/bin/skillkit", "/work/skills/target/debug/skillkit"];
  assert.equal(config.serverCommand({ path: "~/bin/skillkit", agent: "spec" }, env(files)).command, "/home/me/bin/skillkit");
  assert.equal(
    config.serverCommand({ path: "${workspaceFolder}/target/debug/skillkit", agent: "spec" }, env(files)).command,
    "/work/skills/target/debug/skillkit",
  );
  assert.equal(config.serverCommand({ path: "./target/debug/skillkit", agent: "spec" }, env(files)).command, "/work/skills/target/debug/skillkit");
  const bad = config.serverCommand({ path: "/opt/nothing/skillkit", agent: "spec" }, env(files));
  assert.deepEqual(bad, { ok: false, error: "`skillkit.path` is `/opt/nothing/skillkit`, which is not an executable file." });
});

test("no workspace folder: no cwd, and a relative path stays as given", () => {
  const e = env(["/usr/bin/skillkit", "bin/skillkit"], { workspaceFolder: undefined });
  assert.deepEqual(config.serverCommand({ path: "skillkit", agent: "spec" }, e), { ok: true, command: "/usr/bin/skillkit", args: ["lsp"], cwd: undefined });
  assert.equal(config.serverCommand({ path: "bin/skillkit", agent: "spec" }, e).command, "bin/skillkit");
});

test("Windows: PATH is split on ; and PATHEXT is tried", () => {
  const e = {
    PATH: "C:\\Windows;C:\\Users\\me\\.cargo\\bin",
    PATHEXT: ".COM;.EXE",
    platform: "win32",
    home: "C:\\Users\\me",
    isExecutable: (f) => f === "C:\\Users\\me\\.cargo\\bin\\skillkit.EXE",
  };
  assert.equal(config.whichOnPath("skillkit", e), "C:\\Users\\me\\.cargo\\bin\\skillkit.EXE");
  assert.equal(config.expandPath("~\\bin\\skillkit.exe", e), "C:\\Users\\me\\bin\\skillkit.exe");
});

test("a chosen agent travels as initializationOptions, unchanged; none leaves it to the project", () => {
  assert.deepEqual(config.initializationOptions({ path: "skillkit", agent: "claude-code" }), { agent: "claude-code" });
  assert.deepEqual(config.initializationOptions({ path: "skillkit", agent: "no-such-agent" }), { agent: "no-such-agent" });
  assert.deepEqual(config.initializationOptions({ path: "skillkit", agent: undefined }), {});
});

test("only skillkit.path and skillkit.agent restart the server", () => {
  const affected = (...changed) => (section) => changed.some((c) => c === section || c.startsWith(`${section}.`));
  assert.equal(config.needsRestart(affected("skillkit.agent")), true);
  assert.equal(config.needsRestart(affected("skillkit.path")), true);
  assert.equal(config.needsRestart(affected("skillkit.trace.server")), false);
  assert.equal(config.needsRestart(affected("editor.fontSize")), false);
});

test("the agent list matches the manifest's enum", () => {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  assert.deepEqual([...config.AGENTS], manifest.contributes.configuration.properties["skillkit.agent"].enum);
});

test("the protocol names", () => {
  assert.equal(config.PROMPT_SCHEME, "skillkit-prompt");
  assert.equal(config.PROMPT_REQUEST, "skillkit/prompt");
  assert.equal(config.PROMPTS_CHANGED, "skillkit/promptsChanged");
});

test("the agent list is the engine's profiles (crates/skillkit/src/agents)", () => {
  const dir = join(root, "../../crates/skillkit/src/agents");
  const ids = new Set();
  for (const file of readdirSync(dir, { recursive: true })) {
    if (!String(file).endsWith(".rs")) continue;
    const src = readFileSync(join(dir, String(file)), "utf8");
    for (const m of src.matchAll(/pub static \w+: Agent = Agent \{\s*id: "([^"]+)"/g)) ids.add(m[1]);
  }
  assert.deepEqual([...ids].sort(), [...config.AGENTS].sort());
});
