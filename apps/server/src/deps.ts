/** What the HTTP app and the other roles share: built once in main.ts (or a test). */
import type { Config } from './config.ts';
import type { Db, Dialect } from './db/index.ts';
import type { Mailer } from './mail/mailer.ts';
import type { AccessTokens } from './modules/auth/tokens.ts';

export interface Deps {
  config: Config;
  db: Db;
  dialect: Dialect;
  tokens: AccessTokens;
  mailer: Mailer;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: Deps;
  }
}
