import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { applyFavicon, currentBrand } from './app/brands.ts';
import './app/global.css';
import { createI18n } from './app/i18n.ts';

const i18n = createI18n();
document.documentElement.lang = i18n.language;
document.title = currentBrand.title;
applyFavicon(currentBrand.favicon);

createRoot(document.getElementById('root')!).render(<App i18n={i18n} />);
