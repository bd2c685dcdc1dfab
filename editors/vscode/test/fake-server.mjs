#!/usr/bin/env node
// A stand-in for `skillkit lsp` that speaks the parts of the protocol the extension relies on:
// initialize (echoing the agent from initializationOptions), workspace/executeCommand
// skillkit.showPrompt → window/showDocument, the skillkit/prompt request and the
// skillkit/promptsChanged notification (after `initialized` and on every
// workspace/didChangeWatchedFiles). Every message it gets is logged to $FAKE_SKILLKIT_LOG.
import { appendFileSync } from "node:fs";

const log = process.env.FAKE_SKILLKIT_LOG;
const note = (entry) => log && appendFileSync(log, JSON.stringify({ ...entry, at: Date.now() }) + "\n");
note({ argv: process.argv.slice(2), cwd: process.cwd() });

let agent = "spec";
let nextId = 1;
const send = (message) => {
  const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", ...message }), "utf8");
  process.stdout.write(`Content-Length: ${body.length}\r\n\r\n`);
  process.stdout.write(body);
};

function handle(msg) {
  note({ got: msg.method ?? "response", id: msg.id, params: msg.params, result: msg.result });
  switch (msg.method) {
    case "initialize":
      agent = msg.params?.initializationOptions?.agent ?? "spec";
      send({
        id: msg.id,
        result: {
          capabilities: {
            // As `skillkit lsp` advertises them (crates/skillkit-cli/src/lsp.rs).
            textDocumentSync: 2,
            codeActionProvider: { codeActionKinds: ["quickfix", "source.fixAll.skillkit"] },
            codeLensProvider: { resolveProvider: false },
            executeCommandProvider: { commands: ["skillkit.showPrompt", "skillkit.fixAll"] },
          },
          serverInfo: { name: "fake-skillkit" },
        },
      });
      break;
    case "initialized":
      send({ method: "skillkit/promptsChanged" });
      break;
    case "workspace/didChangeWatchedFiles":
      send({ method: "skillkit/promptsChanged" });
      break;
    case "skillkit/prompt":
      send({ id: msg.id, result: { text: `prompt ${msg.params.uri} under ${agent}` } });
      break;
    case "workspace/executeCommand":
      if (msg.params.command === "skillkit.showPrompt") {
        send({ id: `s${nextId++}`, method: "window/showDocument", params: { uri: `skillkit-prompt://${msg.params.arguments[0]}`, takeFocus: true } });
      }
      send({ id: msg.id, result: null });
      break;
    case "shutdown":
      send({ id: msg.id, result: null });
      break;
    case "exit":
      process.exit(0);
      break;
    default:
      if (msg.id !== undefined && msg.method !== undefined) send({ id: msg.id, error: { code: -32601, message: `no ${msg.method}` } });
  }
}

let buffer = Buffer.alloc(0);
process.stdin.on("data", (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  for (;;) {
    const end = buffer.indexOf("\r\n\r\n");
    if (end === -1) return;
    const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, end).toString("ascii"))?.[1]);
    if (buffer.length < end + 4 + length) return;
    const body = buffer.subarray(end + 4, end + 4 + length).toString("utf8");
    buffer = buffer.subarray(end + 4 + length);
    handle(JSON.parse(body));
  }
});
process.stdin.on("end", () => process.exit(0));
