import { startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { applyFavicon, currentBrand } from './app/brands.ts';
import './app/global.css';
import { loadI18n } from './app/i18n.ts';

document.title = currentBrand.title;
applyFavicon(currentBrand.favicon);

// The language's catalogue is its own chunk (app/i18n.ts): render once it is here. The first
// render is a transition, so React renders it in slices that yield to the browser instead of one
// long task.
loadI18n().then((i18n) => {
  document.documentElement.lang = i18n.language;
  const root = createRoot(document.getElementById('root')!);
  startTransition(() => root.render(<App i18n={i18n} />));
});
