// The only module that talks to Tauri. Everything else calls `call` (through `api.ts`), so
// components can be tested with a mocked host (`mockIPC`).
import { invoke } from '@tauri-apps/api/core';
import { listen } from '@tauri-apps/api/event';
import { open } from '@tauri-apps/plugin-dialog';
import type { AppError, Commands, Events } from './bindings';

export type Command = keyof Commands;

/** A rejected command, carrying the host's typed error. */
export class HostError extends Error {
  readonly error: AppError;
  constructor(error: AppError) {
    super(error.message);
    this.error = error;
  }
  get code() {
    return this.error.code;
  }
}

function toAppError(e: unknown): AppError {
  if (e && typeof e === 'object' && 'code' in e && 'message' in e) return e as AppError;
  // Tauri itself rejects with a string (a command not granted, arguments that do not parse).
  return { code: 'internal', message: String(e), details: [] };
}

export async function call<C extends Command>(cmd: C, args: Commands[C]['args']): Promise<Commands[C]['reply']> {
  try {
    return await invoke<Commands[C]['reply']>(cmd, { args });
  } catch (e) {
    throw new HostError(toAppError(e));
  }
}

/** Calls `handler` with each payload of the host event `name`; resolves to a function that stops. */
export async function on<E extends keyof Events>(name: E, handler: (payload: Events[E]) => void): Promise<() => void> {
  return listen<Events[E]>(name, (e) => handler(e.payload));
}

/** Asks for one folder with the system's dialog; `null` when cancelled. */
export async function pickFolder(title: string): Promise<string | null> {
  const picked = await open({ directory: true, multiple: false, title });
  return typeof picked === 'string' ? picked : null;
}
