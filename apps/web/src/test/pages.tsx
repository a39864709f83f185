/** Test helpers of the pages: a fetch that answers by path, and a page rendered in the app's providers at a route. */

import { type DataOf, type Endpoint, ErrorCode } from '@sunfleet/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { vi } from 'vitest';
import { createQueryClient } from '../api/hooks.ts';
import { PageContext } from '../app/pageContext.ts';
import { renderWithApp } from './render.tsx';

export interface Call {
  method: string;
  url: URL;
  body: string | null;
}
/** A refusal: an envelope with a code other than 0. */
export interface Failure {
  __code: number;
  msg: string;
}
/** What a handler answers: data (code 0), or an envelope with another code. */
export type Answer = unknown;
type Handler = (call: Call) => Answer | Response;
/** A route of the fake server: method, exact path or a RegExp on the path, and its handler. */
export type FakeRoute = [string, string | RegExp, Handler];

export const fail = (code: number, msg = ''): Failure => ({ __code: code, msg });

/**
 * A route keyed by an endpoint contract: the contract's method and path (`:param` segments match
 * any one segment), the answer typed by the contract's response data, so a fixture that no longer
 * fits its endpoint's response is a type error. The answer may also be a refusal (`fail`) or a
 * whole Response (a file).
 */
export function on<E extends Endpoint>(
  ep: E,
  answer: DataOf<E> | Failure | ((call: Call) => DataOf<E> | Failure | Response),
): FakeRoute {
  const segments = ep.path.split('/').map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')));
  const handler: Handler = typeof answer === 'function' ? (answer as Handler) : () => answer;
  return [ep.method, ep.path.includes(':') ? new RegExp(`^${segments.join('/')}$`) : ep.path, handler];
}

/**
 * Stub `fetch`: the route whose method and exact path match answers, else the first whose pattern does. Paths are exact
 * (`GET /api/v1/inverters`) or a RegExp on the path; `on(endpoint, answer)` declares one by its
 * contract with a typed answer (the form every fixture takes). Unknown calls answer code 404.
 */
export function serve(routes: FakeRoute[]): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://portal.test');
      const method = init?.method ?? 'GET';
      const body = typeof init?.body === 'string' ? init.body : null;
      const call = { method, url, body };
      calls.push(call);
      // A literal path wins over a pattern (`/inverter/params` over `/inverter/:sn`), else the first match.
      const route =
        routes.find(([m, p]) => m === method && p === url.pathname) ??
        routes.find(([m, p]) => m === method && typeof p !== 'string' && p.test(url.pathname));
      return respond(route ? route[2](call) : fail(ErrorCode.notFound, 'not found'));
    }),
  );
  return calls;
}

/** The server's envelope of an answer; a Response is sent as it is. */
function respond(answer: Answer | Response): Response {
  if (answer instanceof Response) return answer;
  const envelope =
    answer && typeof answer === 'object' && '__code' in answer
      ? { code: (answer as { __code: number }).__code, msg: (answer as { msg?: string }).msg ?? '', data: null }
      : { code: ErrorCode.ok, msg: 'ok', data: answer };
  return new Response(JSON.stringify(envelope), { status: 200 });
}

/**
 * Stub `fetch` with one function of the URL as the page wrote it (path and query): its answer
 * (data, `fail(code)` or a whole Response). The URLs asked are returned, in order.
 */
export function serveUrls(answer: (url: string) => Answer | Response): string[] {
  const urls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      urls.push(url);
      return respond(answer(url));
    }),
  );
  return urls;
}

/** The calls to a path, with their query strings. */
export const callsTo = (calls: Call[], path: string, method = 'GET') =>
  calls.filter((c) => c.method === method && c.url.pathname === path);

function Where() {
  const location = useLocation();
  return <div data-testid="location">{`${location.pathname}${location.search}`}</div>;
}

/** Render a page at `path` under the route `pattern`, with the page's granted buttons. */
export function renderPage(
  page: ReactElement,
  { path, pattern, buttons = [] }: { path: string; pattern: string; buttons?: string[] },
) {
  return renderWithApp(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <PageContext.Provider value={{ route: null, buttons }}>
          <Routes>
            <Route path={pattern} element={page} />
            <Route path="*" element={<div data-testid="elsewhere" />} />
          </Routes>
          <Where />
        </PageContext.Provider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}
