/** Routes of modules/devices (filled in by its owner). */
import type { FastifyInstance } from 'fastify';

export function deviceRoutes(_app: FastifyInstance) {}
