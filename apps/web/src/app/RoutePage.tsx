/** Renders one route's page with its title and granted buttons. */
import { useMemo } from 'react';
import { brandById } from './brands.ts';
import { PageContext, useDocumentTitle } from './pageContext.ts';
import type { PageRoute } from './routes.tsx';

const NO_BUTTONS: readonly string[] = [];

export function RoutePage({ route, buttons = NO_BUTTONS }: { route: PageRoute; buttons?: readonly string[] }) {
  useDocumentTitle(route.titleKey, route.brand ? brandById(route.brand).title : undefined);
  const value = useMemo(() => ({ route, buttons }), [route, buttons]);
  const Page = route.page;
  return <PageContext.Provider value={value}>{Page ? <Page /> : null}</PageContext.Provider>;
}
