// Checks the .vsix that package.sh built: what it holds, its manifest, and that its bundle carries
// the prompt-preview protocol. Run `./package.sh` first.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { isBuiltin } from "node:module";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { readZip } from "./zip.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const source = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const vsixPath = join(root, "dist", `skillkit-${source.version}.vsix`);

function openVsix() {
  let built;
  try {
    built = statSync(vsixPath);
  } catch {
    assert.fail(`${vsixPath} is missing: run editors/vscode/package.sh first`);
  }
  const inputs = [join(root, "package.json"), join(root, "README.md"), ...readdirSync(join(root, "src")).map((f) => join(root, "src", f))];
  for (const input of inputs) {
    assert.ok(statSync(input).mtimeMs <= built.mtimeMs, `${input} is newer than ${vsixPath}: run package.sh again`);
  }
  return readZip(vsixPath);
}

const entries = openVsix();
const text = (name) => {
  const read = entries.get(name);
  assert.ok(read, `the .vsix has no ${name}`);
  return read().toString("utf8");
};
const manifest = JSON.parse(text("extension/package.json"));
const bundle = text("extension/out/extension.js");

test("the .vsix holds the bundle, the manifest, the README and notices, and nothing else", () => {
  const names = [...entries.keys()].sort();
  assert.deepEqual(names, [
    "[Content_Types].xml",
    "extension.vsixmanifest",
    "extension/out/THIRD_PARTY_NOTICES.txt",
    "extension/out/extension.js",
    "extension/package.json",
    "extension/readme.md",
  ]);
  assert.ok(!names.some((n) => n.includes("node_modules")), "node_modules must not be packaged");
});

test("the manifest names the extension and its entry point", () => {
  assert.equal(manifest.name, "skillkit");
  assert.equal(manifest.publisher, "skill-studio");
  assert.equal(manifest.displayName, "Skill Studio (skillkit)");
  assert.equal(manifest.version, source.version);
  assert.equal(manifest.license, "Apache-2.0");
  assert.equal(manifest.main, "./out/extension.js");
  assert.equal(manifest.engines.vscode, "^1.82.0");
  assert.deepEqual(manifest.activationEvents, [
    "workspaceContains:**/SKILL.md",
    "workspaceContains:**/skill.md",
    "onLanguage:markdown",
  ]);
  const vsixmanifest = text("extension.vsixmanifest");
  assert.match(vsixmanifest, /<Identity [^>]*Id="skillkit" Version="0\.1\.0" Publisher="skill-studio"/);
});

test("the settings: path, agent (every profile), trace", () => {
  const props = manifest.contributes.configuration.properties;
  assert.deepEqual(Object.keys(props).sort(), ["skillkit.agent", "skillkit.path", "skillkit.trace.server"]);
  assert.equal(props["skillkit.path"].type, "string");
  assert.equal(props["skillkit.path"].default, "skillkit");
  const agent = props["skillkit.agent"];
  assert.equal(agent.default, "spec");
  assert.deepEqual(agent.enum, [
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
  ]);
  assert.equal(agent.enumDescriptions.length, agent.enum.length);
  assert.deepEqual(props["skillkit.trace.server"].enum, ["off", "messages", "verbose"]);
  assert.equal(props["skillkit.trace.server"].default, "off");
  // An untrusted workspace must not pick the executable.
  assert.deepEqual(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations, ["skillkit.path"]);
});

test("the restart command is contributed; the server's commands are not (the client registers those)", () => {
  const commands = manifest.contributes.commands.map((c) => c.command);
  assert.deepEqual(commands, ["skillkit.restartServer"]);
  assert.equal(manifest.contributes.commands[0].category, "Skill Studio");
  assert.equal(manifest.contributes.commands[0].title, "Restart language server");
});

test("the bundle carries the language client and the prompt-preview protocol", () => {
  for (const s of ["skillkit-prompt", "skillkit/prompt", "skillkit/promptsChanged", "skillkit.restartServer", "**/SKILL.md", "**/skill.md"]) {
    assert.ok(bundle.includes(JSON.stringify(s)) || bundle.includes(`'${s}'`) || bundle.includes(`\`${s}\``), `the bundle lacks ${s}`);
  }
  // Bundled, not required at run time: only `vscode` (and node built-ins) may be required.
  const required = new Set([...bundle.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]));
  const notBuiltin = [...required].filter((m) => m !== "vscode" && !m.startsWith("node:") && !isBuiltin(m));
  assert.deepEqual(notBuiltin, [], "the bundle requires packages that the .vsix does not carry");
  assert.ok(required.has("vscode"));
  assert.match(text("extension/out/THIRD_PARTY_NOTICES.txt"), /^vscode-languageclient 9\.\d+\.\d+ \(MIT\)$/m);
});
