/** jsdom gaps Ant Design needs, and a clean DOM, storage and display settings between tests. */
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { setNumberLocale, setTemperatureUnit } from '../lib/format.ts';

// `findBy…` and `waitFor` wait up to 5 s (the library's 1 s was too short for a page's first
// render, its lazy parts included, when the machine runs the other suites beside this one).
configure({ asyncUtilTimeout: 5000 });

if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}
if (!window.ResizeObserver) {
  window.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  setNumberLocale('en');
  setTemperatureUnit('C');
});
