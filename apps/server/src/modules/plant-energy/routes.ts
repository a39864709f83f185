/** Routes of modules/plant-energy (filled in by its owner). */
import type { FastifyInstance } from 'fastify';

export function plantEnergyRoutes(_app: FastifyInstance) {}
