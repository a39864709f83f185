import { useEffect, useState } from 'react';

/** The body height: fixed for the virtual list, chosen once per window size (320–720 px). */
export function useTableHeight(reserved = 500): number {
  const pick = () => Math.min(720, Math.max(320, (typeof window === 'undefined' ? 900 : window.innerHeight) - reserved));
  const [height, setHeight] = useState(pick);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `pick` only reads the window
  useEffect(() => {
    const onResize = () => setHeight(pick());
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [reserved]);
  return height;
}
