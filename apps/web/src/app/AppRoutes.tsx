/**
 * Top-level routing: the public pages, and everything else behind a stored user.
 * The signed-in shell is itself lazy, so the login page does not ship the menu and pages.
 */
import { Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { getStoredUser } from '../api/session.ts';
import { PageErrorBoundary } from '../components/PageErrorBoundary.tsx';
import { PageLoading } from '../components/PageState.tsx';
import { lazyPage } from './navigationActivity.ts';
import { RoutePage } from './RoutePage.tsx';
import { homePath, type PageRoute, publicRoutes, signedOutOnly } from './routes.tsx';

const Shell = lazyPage(() => import('./shell/ShellLayout.tsx'));

function PublicPage({ route }: { route: PageRoute }) {
  if (signedOutOnly.has(route.path) && getStoredUser()) return <Navigate to={homePath} replace />;
  return <RoutePage route={route} />;
}

function RequireUser() {
  const location = useLocation();
  if (!getStoredUser()) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  // `/` goes to the plant list at once, without waiting for the shell's data.
  if (location.pathname === '/') return <Navigate to={homePath} replace />;
  return <Shell />;
}

export function AppRoutes() {
  const { pathname } = useLocation();
  return (
    <PageErrorBoundary resetKey={pathname}>
      <Suspense fallback={<PageLoading fullPage />}>
        <Routes>
          {publicRoutes.map((route) => (
            <Route key={route.path} path={route.path} element={<PublicPage route={route} />} />
          ))}
          <Route path="*" element={<RequireUser />} />
        </Routes>
      </Suspense>
    </PageErrorBoundary>
  );
}
