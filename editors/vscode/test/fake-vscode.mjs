// Just enough of the `vscode` API for the bundled extension and vscode-languageclient to start a
// server, with what the extension does recorded in `state`. Names it does not define answer with
// inert stand-ins (a class, a function returning a disposable, an event), as a host that has them
// but that nothing here looks at.

class Disposable {
  constructor(fn = () => {}) {
    this.fn = fn;
  }
  dispose() {
    const fn = this.fn;
    this.fn = () => {};
    fn();
  }
  static from(...items) {
    return new Disposable(() => items.forEach((d) => d?.dispose?.()));
  }
}

class EventEmitter {
  listeners = new Set();
  event = (listener, thisArg) => {
    const bound = listener.bind(thisArg);
    this.listeners.add(bound);
    return new Disposable(() => this.listeners.delete(bound));
  };
  fire(value) {
    for (const l of [...this.listeners]) l(value);
  }
  dispose() {
    this.listeners.clear();
  }
}

class Uri {
  constructor(scheme, authority, path, query, fragment) {
    Object.assign(this, { scheme, authority, path, query, fragment });
  }
  static parse(value) {
    const m = /^([a-zA-Z][\w+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(value);
    if (!m) throw new Error(`fake Uri.parse: ${value}`);
    return new Uri(m[1], m[2] ?? "", m[3] ?? "", m[4] ?? "", m[5] ?? "");
  }
  static file(path) {
    return new Uri("file", "", path, "", "");
  }
  get fsPath() {
    return this.path;
  }
  with(change) {
    return new Uri(change.scheme ?? this.scheme, change.authority ?? this.authority, change.path ?? this.path, change.query ?? this.query, change.fragment ?? this.fragment);
  }
  toString() {
    const q = this.query ? `?${this.query}` : "";
    const f = this.fragment ? `#${this.fragment}` : "";
    const auth = this.authority !== "" || this.scheme === "file" ? `//${this.authority}` : "";
    return `${this.scheme}:${auth}${this.path}${q}${f}`;
  }
  toJSON() {
    return this.toString();
  }
}

class CancellationTokenSource {
  emitter = new EventEmitter();
  token = { isCancellationRequested: false, onCancellationRequested: this.emitter.event };
  cancel() {
    this.token.isCancellationRequested = true;
    this.emitter.fire();
  }
  dispose() {}
}

class CodeActionKind {
  constructor(value) {
    this.value = value;
  }
  append(part) {
    return new CodeActionKind(this.value ? `${this.value}.${part}` : part);
  }
  contains(other) {
    return this.value === "" || other.value === this.value || other.value.startsWith(`${this.value}.`);
  }
  intersects(other) {
    return this.contains(other) || other.contains(this);
  }
}
for (const [name, value] of Object.entries({ Empty: "", QuickFix: "quickfix", Refactor: "refactor", Source: "source", SourceFixAll: "source.fixAll", SourceOrganizeImports: "source.organizeImports" })) {
  CodeActionKind[name] = new CodeActionKind(value);
}

const noEvent = () => new Disposable();

/** A namespace object whose unknown members are inert: `onX` events, other functions returning a disposable. */
function namespace(members) {
  return new Proxy(members, {
    get(target, name) {
      if (name in target || typeof name === "symbol") return target[name];
      if (/^on[A-Z]/.test(name)) return noEvent;
      return () => new Disposable();
    },
  });
}

export function createFakeVscode(initialConfig) {
  const state = {
    config: { ...initialConfig },
    configurationChanged: new EventEmitter(),
    contentProviders: new Map(),
    commands: new Map(),
    watchers: [],
    output: [],
    errors: [],
    shown: [],
    documents: [],
  };

  const outputChannel = (name) => ({
    name,
    append: (s) => state.output.push(s),
    appendLine: (s) => state.output.push(`${s}\n`),
    replace() {},
    clear() {},
    show() {},
    hide() {},
    dispose() {},
  });

  const vscode = {
    version: "1.82.0",
    Disposable,
    EventEmitter,
    Uri,
    CancellationTokenSource,
    CancellationError: class CancellationError extends Error {},
    CodeActionKind,
    ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
    workspace: namespace({
      get workspaceFolders() {
        return [{ uri: Uri.file(state.config.workspaceFolder), name: "ws", index: 0 }];
      },
      get textDocuments() {
        return state.documents;
      },
      getConfiguration(section) {
        return {
          get: (key, fallback) => state.config[section ? `${section}.${key}` : key] ?? fallback,
          has: (key) => `${section}.${key}` in state.config,
          // What the user set lands in globalValue; the manifest's defaults are not modelled.
          inspect: (key) => ({ key: `${section}.${key}`, globalValue: state.config[`${section}.${key}`] }),
          update: async () => {},
        };
      },
      onDidChangeConfiguration: state.configurationChanged.event,
      registerTextDocumentContentProvider(scheme, provider) {
        if (state.contentProviders.has(scheme)) throw new Error(`a provider for ${scheme} is registered already`);
        state.contentProviders.set(scheme, provider);
        return new Disposable(() => state.contentProviders.delete(scheme));
      },
      createFileSystemWatcher(glob) {
        const [created, changed, deleted] = [new EventEmitter(), new EventEmitter(), new EventEmitter()];
        const watcher = { glob, disposed: false, created, changed, deleted, onDidCreate: created.event, onDidChange: changed.event, onDidDelete: deleted.event };
        watcher.dispose = () => (watcher.disposed = true);
        state.watchers.push(watcher);
        return watcher;
      },
      applyEdit: async () => true,
    }),
    window: namespace({
      activeTextEditor: undefined,
      visibleTextEditors: [],
      tabGroups: { all: [], onDidChangeTabs: noEvent, onDidChangeTabGroups: noEvent },
      createOutputChannel: outputChannel,
      showErrorMessage: async (message) => (state.errors.push(message), undefined),
      showWarningMessage: async (message) => (state.errors.push(message), undefined),
      showInformationMessage: async () => undefined,
      showTextDocument: async (uri, options) => (state.shown.push({ uri: uri.toString(), options }), {}),
      withProgress: (_options, task) => task({ report() {} }, new CancellationTokenSource().token),
    }),
    languages: namespace({
      match: () => 0,
      createDiagnosticCollection: () => {
        const items = new Map();
        return {
          set: (uri, diagnostics) => items.set(String(uri), diagnostics),
          delete: (uri) => items.delete(String(uri)),
          clear: () => items.clear(),
          forEach() {},
          get: (uri) => items.get(String(uri)),
          has: (uri) => items.has(String(uri)),
          dispose() {},
        };
      },
    }),
    commands: namespace({
      registerCommand(id, callback, thisArg) {
        if (state.commands.has(id)) throw new Error(`command '${id}' already exists`);
        state.commands.set(id, callback.bind(thisArg));
        return new Disposable(() => state.commands.delete(id));
      },
      executeCommand: async (id, ...args) => state.commands.get(id)?.(...args),
    }),
    env: namespace({ appName: "fake-vscode", language: "en", machineId: "test", openExternal: async () => true }),
  };

  // Classes the language client extends or constructs (CodeLens, Diagnostic, Range, …).
  const classes = new Map();
  const module = new Proxy(vscode, {
    get(target, name) {
      if (name in target || typeof name === "symbol") return target[name];
      if (/^[A-Z]/.test(name)) {
        if (!classes.has(name)) classes.set(name, { [name]: class { constructor(...args) { this.args = args; } } }[name]);
        return classes.get(name);
      }
      return undefined;
    },
  });
  return { vscode: module, state };
}
