import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Public-site APIs: waitlist, billing plans, status history and the contact form. */
export const publicSitePlugin: FastifyPluginAsyncZod = async () => {};
