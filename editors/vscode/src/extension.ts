// Skill Studio for VS Code: runs `skillkit lsp` over stdio for SKILL.md files and shows the
// server's prompt previews (`skillkit-prompt://<agent>`) as read-only virtual documents.

import * as fs from "node:fs";
import * as os from "node:os";
import * as vscode from "vscode";
import { LanguageClient, LanguageClientOptions, ServerOptions } from "vscode-languageclient/node";
import {
  Environment,
  PROMPTS_CHANGED,
  PROMPT_REQUEST,
  PROMPT_SCHEME,
  initializationOptions,
  needsRestart,
  normalizeSettings,
  serverCommand,
} from "./config";

const CLIENT_ID = "skillkit"; // the client reads `skillkit.trace.server` from this id
const CLIENT_NAME = "Skill Studio (skillkit)";

let client: LanguageClient | undefined;
let watcher: vscode.FileSystemWatcher | undefined;
let output: vscode.OutputChannel | undefined;
let lifecycle: Promise<void> = Promise.resolve(); // starts and stops, one at a time

/** The prompt previews: their text comes from the server, and they are refreshed when it says so. */
class PromptPreviews implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const running = client;
    if (running === undefined || !running.isRunning()) {
      return `The skillkit language server is not running, so ${uri.toString()} cannot be shown.\n` +
        `Run "Skill Studio: Restart language server", or see the "${CLIENT_NAME}" output.\n`;
    }
    try {
      const reply = await running.sendRequest<{ text: string }>(PROMPT_REQUEST, { uri: uri.toString() }, token);
      return typeof reply?.text === "string" ? reply.text : "";
    } catch (error) {
      return `skillkit could not render ${uri.toString()}:\n${error instanceof Error ? error.message : String(error)}\n`;
    }
  }

  /** Re-reads every open `skillkit-prompt:` document. */
  refreshAll(): void {
    for (const doc of vscode.workspace.textDocuments) {
      if (doc.uri.scheme === PROMPT_SCHEME) this.changed.fire(doc.uri);
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function environment(): Environment {
  return {
    PATH: process.env.PATH ?? process.env.Path,
    PATHEXT: process.env.PATHEXT,
    platform: process.platform,
    home: os.homedir(),
    workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
    isExecutable(file: string): boolean {
      try {
        if (!fs.statSync(file).isFile()) return false;
        if (process.platform !== "win32") fs.accessSync(file, fs.constants.X_OK);
        return true;
      } catch {
        return false;
      }
    },
  };
}

async function startClient(previews: PromptPreviews): Promise<void> {
  const config = vscode.workspace.getConfiguration("skillkit");
  // The agent only when the user chose one: unset, the server follows the project's skillkit.toml.
  const agent = config.inspect<string>("agent");
  const chosen = agent?.workspaceFolderValue ?? agent?.workspaceValue ?? agent?.globalValue;
  const settings = normalizeSettings({ path: config.get("path"), agent: chosen });
  const resolved = serverCommand(settings, environment());
  if (!resolved.ok) {
    output?.appendLine(resolved.error);
    void vscode.window.showErrorMessage(`Skill Studio: ${resolved.error}`, "Open Settings").then((choice) => {
      if (choice === "Open Settings") void vscode.commands.executeCommand("workbench.action.openSettings", "skillkit.path");
    });
    return;
  }

  const serverOptions: ServerOptions = {
    // No `transport`: for an executable, `TransportKind.stdio` would append `--stdio` to the args.
    command: resolved.command,
    args: resolved.args,
    options: resolved.cwd !== undefined ? { cwd: resolved.cwd } : undefined,
  };
  // Skills depend on the files in their folders (scripts, references): the server hears of all of them.
  watcher = vscode.workspace.createFileSystemWatcher("**/*");
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", pattern: "**/SKILL.md" },
      { scheme: "file", pattern: "**/skill.md" },
    ],
    synchronize: { fileEvents: watcher },
    initializationOptions: initializationOptions(settings),
    outputChannel: output,
  };
  const created = new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions);
  created.onNotification(PROMPTS_CHANGED, () => previews.refreshAll());
  client = created;
  output?.appendLine(`Starting ${resolved.command} ${resolved.args.join(" ")} (agent: ${settings.agent ?? "the project's"})`);
  try {
    await created.start();
  } catch (error) {
    output?.appendLine(`The server did not start: ${error instanceof Error ? error.message : String(error)}`);
    return;
  }
  // Previews left open by an earlier server (or another agent) are re-read from this one.
  previews.refreshAll();
}

async function stopClient(): Promise<void> {
  const stopping = client;
  client = undefined;
  if (stopping !== undefined) {
    try {
      await stopping.dispose(2000);
    } catch (error) {
      output?.appendLine(`Stopping the server: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  watcher?.dispose();
  watcher = undefined;
}

function enqueue(step: () => Promise<void>): Promise<void> {
  lifecycle = lifecycle.then(step, step);
  return lifecycle;
}

export function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel(CLIENT_NAME);
  const previews = new PromptPreviews();
  const restart = () => enqueue(async () => {
    await stopClient();
    await startClient(previews);
  });
  context.subscriptions.push(
    output,
    previews,
    vscode.workspace.registerTextDocumentContentProvider(PROMPT_SCHEME, previews),
    vscode.commands.registerCommand("skillkit.restartServer", restart),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (needsRestart((section) => event.affectsConfiguration(section))) void restart();
    }),
  );
  // `skillkit.showPrompt` and `skillkit.fixAll` are not registered here: the server lists them in
  // `executeCommandProvider`, so the client registers them and forwards them as workspace/executeCommand.
  return enqueue(() => startClient(previews));
}

export function deactivate(): Promise<void> {
  return enqueue(stopClient);
}
