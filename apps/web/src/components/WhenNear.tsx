/**
 * Renders its children once their place comes near the viewport (within `margin`), keeping a
 * placeholder of `minHeight` until then: a card below the fold, and the code it needs, wait until
 * the page is scrolled towards it. Where IntersectionObserver is missing, renders at once.
 */
import { type ReactNode, Suspense, useEffect, useRef, useState } from 'react';

export function WhenNear({
  children,
  placeholder,
  margin = '200px',
}: {
  children: ReactNode;
  /** Shown until the children render and while their code loads. */
  placeholder: ReactNode;
  margin?: string;
}) {
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (near || !ref.current) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: margin },
    );
    observer.observe(ref.current);
    return () => observer.disconnect();
  }, [near, margin]);
  if (!near) return <div ref={ref}>{placeholder}</div>;
  return <Suspense fallback={placeholder}>{children}</Suspense>;
}
