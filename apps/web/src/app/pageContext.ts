/** The route being shown and its granted buttons, for page titles and the Permission directive. */
import { createContext, useContext, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { currentBrand } from './brands.ts';
import type { PageRoute } from './routes.tsx';

export interface PageInfo {
  route: PageRoute | null;
  /** Names of the buttons granted on this page. */
  buttons: readonly string[];
}
export const PageContext = createContext<PageInfo>({ route: null, buttons: [] });
export const usePage = () => useContext(PageContext);

/** document.title = "<route title> - <brand title>". */
export function useDocumentTitle(titleKey: string | undefined, brandTitle = currentBrand.title): void {
  const { t } = useTranslation('menu');
  const title = titleKey ? t(titleKey) : '';
  useEffect(() => {
    document.title = title ? `${title} - ${brandTitle}` : brandTitle;
  }, [title, brandTitle]);
}
