/** Routes of modules/reports (filled in by its owner). */
import type { FastifyInstance } from 'fastify';

export function reportRoutes(_app: FastifyInstance) {}
