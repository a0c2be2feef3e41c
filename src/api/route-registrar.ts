import type { FastifyInstance } from 'fastify';
import type { Services } from '../service/services.js';

export type RouteRegistrar = (app: FastifyInstance, services: Services) => void;

export function registerExtraRoutes(app: FastifyInstance, services: Services, registrars: RouteRegistrar[]): void {
  for (const r of registrars) r(app, services);
}
