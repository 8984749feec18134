/**
 * Resolves once the browser has painted what is on screen now: a frame, then the task after it.
 * A tab opened in the background paints nothing until it is shown, so there it resolves at once.
 */
export function afterNextPaint(): Promise<void> {
  if (document.visibilityState === 'hidden') return Promise.resolve();
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}
