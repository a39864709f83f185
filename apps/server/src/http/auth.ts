/** Bearer-token authentication: JWT → live session → enabled user → granted permissions; scrapers; the broker's hooks. */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Caller } from '../access/caller.ts';
import { grantsFor } from '../access/grants.ts';
import { sessionUser } from '../modules/auth/sessions.ts';
import { AuthError } from './errors.ts';

export async function authenticate(app: FastifyInstance, req: FastifyRequest): Promise<Caller> {
  const header = req.headers.authorization;
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  if (!match?.[1]) throw new AuthError();
  const claims = await app.deps.tokens.verify(match[1]);
  if (!claims) throw new AuthError();
  const { db } = app.deps;
  const user = await sessionUser(db, claims.sessionId, claims.userId);
  if (!user?.enabled) throw new AuthError();
  return { user, sessionId: claims.sessionId, grants: await grantsFor(db, user) };
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}

/**
 * A scraper: from the loopback address without a token; from elsewhere only with the configured
 * metrics token. `req.ip` is the peer address, or the client named by trusted proxies only
 * (TRUST_PROXY): a proxy on this machine does not make its remote clients look local.
 */
export function authorizeScrape(req: FastifyRequest, token: string | null): void {
  if (isLoopback(req.ip)) return;
  const given = req.headers.authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
  if (!token || !given || !sameSecret(given, token)) throw new AuthError();
}

/** Compare digests: equal lengths for timingSafeEqual, and no early exit on the first difference. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * The external broker's hooks: `Authorization: Bearer <MQTT_HOOK_SECRET>` from any address (the
 * broker runs elsewhere); without a configured secret nobody passes.
 */
export function authorizeBrokerHook(req: FastifyRequest, secret: string | null): void {
  const given = req.headers.authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
  if (!secret || !given || !sameSecret(given, secret)) throw new AuthError();
}
