import { useEffect } from 'react';

/** While a file is being written, closing or reloading the page asks first (it would cut it short). */
export function useWarnBeforeLeaving(isActive: boolean): void {
  useEffect(() => {
    if (!isActive) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [isActive]);
}
