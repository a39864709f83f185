/** Routes of modules/events (filled in by its owner). */
import type { FastifyInstance } from 'fastify';

export function eventRoutes(_app: FastifyInstance) {}
