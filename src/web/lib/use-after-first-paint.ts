import { useEffect, useState } from 'react';
import { afterNextPaint } from './after-paint';

/**
 * False until the browser has painted the component's first render: what can wait (background
 * work, media that only moves) starts after the page is on screen, not before.
 */
export function useAfterFirstPaint(): boolean {
  const [isPainted, setIsPainted] = useState(false);
  useEffect(() => {
    let isCurrent = true;
    void afterNextPaint().then(() => {
      if (isCurrent) setIsPainted(true);
    });
    return () => {
      isCurrent = false;
    };
  }, []);
  return isPainted;
}
