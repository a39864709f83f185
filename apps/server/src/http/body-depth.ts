/**
 * A request body nested deeper than 32 levels is refused before validation with HTTP 400 and
 * code 4: schema validation, serialising and storing walk a body recursively, and a deep one
 * would exhaust the stack (a server fault) instead of being a client's mistake.
 */
import type { FastifyInstance } from 'fastify';
import { RequestError } from './errors.ts';

export const maxBodyDepth = 32;

/** Whether `value` nests objects or arrays deeper than `limit` levels (the outermost is level 1); no recursion. */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(node)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

export function installBodyDepthLimit(app: FastifyInstance, limit = maxBodyDepth) {
  app.addHook('preValidation', async (req) => {
    if (req.body !== null && typeof req.body === 'object' && nestedDeeperThan(req.body, limit)) {
      throw new RequestError(400, `the body is nested deeper than ${limit} levels`);
    }
  });
}
