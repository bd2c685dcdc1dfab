// The typed command surface the components use: one function per host command.
import { call, HostError, on, pickFolder } from './host';
import type { AppError, Commands } from './bindings';

type Api = { [C in keyof Commands]: (args: Commands[C]['args']) => Promise<Commands[C]['reply']> };

export const api: Api = new Proxy({} as Api, {
  get: (_, cmd: string) => (args: unknown) => call(cmd as keyof Commands, args as never),
});

/** The host's events (see `Events` in the bindings). */
export const events = { on };

/** The system's dialogs. */
export const dialogs = { pickFolder };

/** A failed command's typed error (anything else thrown becomes an `internal` one). */
export function asAppError(e: unknown): AppError {
  return e instanceof HostError ? e.error : { code: 'internal', message: String(e), details: [] };
}
