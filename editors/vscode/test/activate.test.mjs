// Runs the bundle from the built .vsix against a fake `vscode` module (test/fake-vscode.mjs) and a
// fake `skillkit lsp` (test/fake-server.mjs) found on PATH: the real vscode-languageclient starts
// the server, and the test drives what VS Code would: opening a prompt preview, the code lens's
// `skillkit.showPrompt`, a change of `skillkit.agent`, deactivation.
import assert from "node:assert/strict";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { createFakeVscode } from "./fake-vscode.mjs";
import { readZip } from "./zip.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const version = JSON.parse(readFileSync(join(here, "..", "package.json"), "utf8")).version;
const vsix = join(here, "..", "dist", `skillkit-${version}.vsix`);

const scratch = mkdtempSync(join(tmpdir(), "skillkit-vscode-activate-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

// The fake server, as an executable named `skillkit` on PATH.
const bin = join(scratch, "bin");
const server = join(bin, "skillkit");
mkdirSync(bin);
copyFileSync(join(here, "fake-server.mjs"), server);
chmodSync(server, 0o755);
process.env.PATH = `${bin}${delimiter}${process.env.PATH}`;
const serverLog = join(scratch, "server.log");
process.env.FAKE_SKILLKIT_LOG = serverLog;
/** What the fake server logged (a line still being written is left for the next look). */
const serverMessages = () =>
  readFileSync(serverLog, "utf8")
    .split("\n")
    .filter((l) => l.endsWith("}"))
    .flatMap((l) => {
      try {
        return [JSON.parse(l)];
      } catch {
        return [];
      }
    });

// The extension as shipped, loaded with `require("vscode")` answered by the fake.
const bundle = join(scratch, "extension.js");
const entry = readZip(vsix).get("extension/out/extension.js");
assert.ok(entry, `${vsix} has no extension/out/extension.js: run package.sh`);
writeFileSync(bundle, entry());
const { vscode, state } = createFakeVscode({ workspaceFolder: scratch, "skillkit.agent": "claude-code" });
const load = Module._load;
Module._load = function (request, ...rest) {
  return request === "vscode" ? vscode : load.call(this, request, ...rest);
};
const extension = createRequire(import.meta.url)(bundle);

/** Resolves when `check()` holds, polling; fails after `ms`. */
async function until(what, check, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}; output:\n${state.output.join("")}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const context = { subscriptions: [] };
const preview = vscode.Uri.parse("skillkit-prompt://claude-code");
let refreshed = [];

test("activation starts `skillkit lsp` from PATH with the agent in initializationOptions", async () => {
  // A preview is open before the server starts (as after a window reload).
  state.documents.push({ uri: preview }, { uri: vscode.Uri.file(join(scratch, "SKILL.md")) });
  await extension.activate(context);
  assert.deepEqual(state.errors, []);
  // start() resolves once `initialized` is sent; the server may not have logged it yet.
  await until("the server to log `initialized`", () => serverMessages().some((m) => m.got === "initialized"));
  const [started, ...messages] = serverMessages();
  assert.deepEqual(started.argv, ["lsp"]);
  assert.equal(started.cwd, scratch);
  const init = messages.find((m) => m.got === "initialize");
  assert.deepEqual(init.params.initializationOptions, { agent: "claude-code" });
  assert.ok(messages.some((m) => m.got === "initialized"));
  assert.deepEqual(state.watchers.map((w) => w.glob), ["**/*"]);
  assert.ok(state.commands.has("skillkit.restartServer"));
});

test("the client registers the server's commands, not the extension", async () => {
  await until("skillkit.showPrompt to be registered", () => state.commands.has("skillkit.showPrompt"));
  assert.ok(state.commands.has("skillkit.fixAll"));
});

test("file changes reach the server; its skillkit/promptsChanged re-reads every open skillkit-prompt: document", async () => {
  const provider = state.contentProviders.get("skillkit-prompt");
  assert.ok(provider, "no content provider for skillkit-prompt");
  const seen = []; // { uri, at }
  provider.onDidChange((uri) => seen.push({ uri: uri.toString(), at: Date.now() }));
  provider.onDidChange((uri) => refreshed.push(uri.toString())); // for the tests below
  // The fake server answers workspace/didChangeWatchedFiles with skillkit/promptsChanged.
  state.watchers[0].changed.fire(vscode.Uri.file(join(scratch, "scripts", "run.py")));
  const changedAt = () => serverMessages().find((m) => m.got === "workspace/didChangeWatchedFiles");
  await until("a refresh after the file change", () => changedAt() && seen.some((r) => r.at >= changedAt().at));
  const changed = changedAt();
  assert.deepEqual(changed.params, { changes: [{ uri: `file://${join(scratch, "scripts", "run.py")}`, type: 2 }] });
  const after = seen.filter((r) => r.at >= changed.at).map((r) => r.uri);
  assert.deepEqual(after, ["skillkit-prompt://claude-code"]); // the open preview, not the SKILL.md
});

test("a preview's text comes from the skillkit/prompt request", async () => {
  const provider = state.contentProviders.get("skillkit-prompt");
  const token = new vscode.CancellationTokenSource().token;
  const text = await provider.provideTextDocumentContent(preview, token);
  assert.equal(text, "prompt skillkit-prompt://claude-code under claude-code");
  const request = serverMessages().find((m) => m.got === "skillkit/prompt");
  assert.deepEqual(request.params, { uri: "skillkit-prompt://claude-code" });
});

test("the code lens command reaches the server, whose showDocument opens the preview focused", async () => {
  state.shown.length = 0;
  await vscode.commands.executeCommand("skillkit.showPrompt", "codex");
  await until("window/showDocument", () => state.shown.length > 0);
  assert.deepEqual(state.shown, [{ uri: "skillkit-prompt://codex", options: { preserveFocus: false } }]);
  const executed = serverMessages().find((m) => m.got === "workspace/executeCommand");
  assert.deepEqual(executed.params, { command: "skillkit.showPrompt", arguments: ["codex"] });
});

test("changing skillkit.agent restarts the server with the new agent and refreshes the previews", async () => {
  refreshed = [];
  writeFileSync(serverLog, "");
  state.config["skillkit.agent"] = "codex";
  state.configurationChanged.fire({ affectsConfiguration: (s) => s === "skillkit.agent" || s === "skillkit" });
  await until("a new server", () => serverMessages().some((m) => m.got === "initialized"));
  assert.deepEqual(serverMessages().find((m) => m.got === "initialize").params.initializationOptions, { agent: "codex" });
  await until("the previews to refresh", () => refreshed.includes("skillkit-prompt://claude-code"));
  const provider = state.contentProviders.get("skillkit-prompt");
  await until("the new client to run", () => state.commands.has("skillkit.showPrompt"));
  const text = await provider.provideTextDocumentContent(preview, new vscode.CancellationTokenSource().token);
  assert.equal(text, "prompt skillkit-prompt://claude-code under codex");
  // The old watcher went with the old client.
  assert.deepEqual(state.watchers.map((w) => w.disposed), [true, false]);
});

test("unsetting skillkit.agent restarts the server with no agent, so the project's config decides", async () => {
  writeFileSync(serverLog, "");
  delete state.config["skillkit.agent"];
  state.configurationChanged.fire({ affectsConfiguration: (s) => s === "skillkit.agent" || s === "skillkit" });
  await until("a new server", () => serverMessages().some((m) => m.got === "initialized"));
  assert.deepEqual(serverMessages().find((m) => m.got === "initialize").params.initializationOptions, {});
  await until("the new client to run", () => state.commands.has("skillkit.showPrompt"));
  const provider = state.contentProviders.get("skillkit-prompt");
  const text = await provider.provideTextDocumentContent(preview, new vscode.CancellationTokenSource().token);
  assert.equal(text, "prompt skillkit-prompt://claude-code under spec"); // the fake server's own default
});

test("a change to another setting does not restart", async () => {
  writeFileSync(serverLog, "");
  state.configurationChanged.fire({ affectsConfiguration: (s) => s === "skillkit.trace.server" || s === "skillkit" });
  await new Promise((r) => setTimeout(r, 300));
  // The client itself re-reads skillkit.trace.server ($/setTrace); the process stays.
  const got = serverMessages().map((m) => m.got ?? "started");
  assert.ok(!got.some((g) => ["started", "initialize", "shutdown", "exit"].includes(g)), got.join(", "));
});

test("deactivation shuts the server down", async () => {
  writeFileSync(serverLog, "");
  await extension.deactivate();
  await until("exit", () => serverMessages().some((m) => m.got === "exit"));
  assert.deepEqual(serverMessages().map((m) => m.got).slice(0, 2), ["shutdown", "exit"]);
  const provider = state.contentProviders.get("skillkit-prompt");
  const text = await provider.provideTextDocumentContent(preview, new vscode.CancellationTokenSource().token);
  assert.match(text, /not running/);
});

test("a missing executable is reported, naming the setting", async () => {
  state.errors.length = 0;
  state.config["skillkit.path"] = "no-such-skillkit";
  await vscode.commands.executeCommand("skillkit.restartServer");
  assert.equal(state.errors.length, 1);
  assert.match(state.errors[0], /Cannot find `no-such-skillkit` on PATH/);
  for (const d of context.subscriptions) d.dispose();
});
