// Scheduling around the window's frames.

/** Runs `fn` once the next frame is painted (in a task after it), so that work nobody waits for
 *  does not hold up what the frame shows; after `ms` when no frame comes (a hidden window). */
export function afterPaint(fn: () => void, ms = 100) {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    fn();
  };
  const timer = setTimeout(run, ms);
  requestAnimationFrame(() => setTimeout(run, 0));
}
