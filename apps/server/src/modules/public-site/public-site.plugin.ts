import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { contactRoutes } from '../contact/contact.routes.ts';
import { statusRoutes } from '../status/status.routes.ts';
import { waitlistRoutes } from '../waitlist/waitlist.routes.ts';
import { plansRoutes } from './plans.routes.ts';

/** Public-site APIs: waitlist, billing plans, status history and the contact form. */
export const publicSitePlugin: FastifyPluginAsyncZod = async (app) => {
  await app.register(waitlistRoutes);
  await app.register(plansRoutes);
  await app.register(statusRoutes);
  await app.register(contactRoutes);
};
