// Calls made in a burst (typing) run once, `ms` after the last one, with its arguments.

export interface Debounced<A extends unknown[]> {
  (...args: A): void;
  /** Drops the call waiting to run, if any. */
  cancel(): void;
}

export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number): Debounced<A> {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const cancel = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
  const call = (...args: A) => {
    cancel();
    timer = setTimeout(() => {
      timer = null;
      fn(...args);
    }, ms);
  };
  return Object.assign(call, { cancel });
}
