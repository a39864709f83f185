/**
 * Renders its children in a transition once the page around it has committed, showing
 * `placeholder` until then: the cards above the fold paint first, and React renders the rest in
 * slices that yield to the browser between them instead of one long task. The placeholder should
 * hold the children's place (below the fold, so nothing visible moves when they arrive).
 */
import { type ReactNode, startTransition, useEffect, useState } from 'react';

export function RenderLater({ children, placeholder }: { children: ReactNode; placeholder: ReactNode }) {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    startTransition(() => setReady(true));
  }, []);
  return ready ? children : placeholder;
}
