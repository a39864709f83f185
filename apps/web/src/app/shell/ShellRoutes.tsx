/**
 * The signed-in router: `/` → the plant list, one route per kept table entry, the 403 page on
 * the table's routes the caller may not open, 404 last.
 */
import { Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { PageErrorBoundary } from '../../components/PageErrorBoundary.tsx';
import { PageLoading } from '../../components/PageState.tsx';
import { firstPage, flattenRoutes, pageButtons } from '../buildRoutes.ts';
import { RoutePage } from '../RoutePage.tsx';
import { forbiddenRoute, homePath, type PageRoute } from '../routes.tsx';

function routeElement(route: PageRoute, buttons: Record<string, string[]>) {
  if (route.page) return <RoutePage route={route} buttons={pageButtons(route, buttons)} />;
  // A menu group: its first visible page.
  const target = firstPage(route);
  return target ? <Navigate to={target.path} replace /> : <Navigate to="/404" replace />;
}

export function ShellRoutes({
  routes,
  forbidden,
  buttons,
}: {
  routes: PageRoute[];
  forbidden: PageRoute[];
  buttons: Record<string, string[]>;
}) {
  const flat = flattenRoutes(routes);
  // Without the plant list, `/` and `/plants` lead to the first page the account has.
  const fallbackHome = flat.find((r) => !r.hidden && r.page)?.path ?? '/edit';
  const hasHome = flat.some((r) => r.path === homePath);
  const { pathname } = useLocation();
  return (
    <PageErrorBoundary resetKey={pathname}>
      <Suspense fallback={<PageLoading fullPage />}>
        <Routes>
          <Route index element={<Navigate to={hasHome ? homePath : fallbackHome} replace />} />
          {!hasHome && <Route path={homePath} element={<Navigate to={fallbackHome} replace />} />}
          {flat.map((route) => (
            <Route key={route.path} path={route.path} element={routeElement(route, buttons)} />
          ))}
          {forbidden.map((route) => (
            <Route key={route.path} path={route.path} element={<RoutePage route={forbiddenRoute} />} />
          ))}
        </Routes>
      </Suspense>
    </PageErrorBoundary>
  );
}
