/** Bearer-token authentication: JWT → live session → enabled user → granted permissions. */
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
