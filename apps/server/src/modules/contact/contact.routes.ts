import { CONTACT_MESSAGES, ContactRequest, ContactResponse } from '@conductor/shared/schemas/contact';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ipRateLimit } from '../public-site/ip-rate-limit.ts';
import { confirmationAllowance } from '../support/confirmation-limit.ts';
import { submitContactMessage } from './contact.service.ts';

export const CONTACT_RATE_LIMIT = { points: 10, durationSeconds: 600 } as const;

/** `POST /api/v1/contact`: the /contact page's form, stored like a support ticket and confirmed by e-mail. */
export const contactRoutes: FastifyPluginAsyncZod = async (app) => {
  const limit = ipRateLimit({
    name: 'contact',
    redis: app.context.redis,
    redisPrefix: app.context.env.GATEWAY_REDIS_PREFIX,
    ...CONTACT_RATE_LIMIT,
  });
  const mayConfirm = confirmationAllowance('contact', app.context.redis, app.context.env.GATEWAY_REDIS_PREFIX);

  app.post(
    '/api/v1/contact',
    {
      onRequest: limit,
      schema: {
        tags: ['Contact'],
        summary: 'Send a message to the team',
        description: 'Stores the message (with the signed-in account when there is one) and e-mails a confirmation with its reference.',
        body: ContactRequest,
        response: { 201: ContactResponse },
      },
    },
    async (request, reply) => {
      const { id, reference } = await submitContactMessage(
        { db: app.context.database.db, mailer: app.context.mailer, now: app.context.clock.now, mayConfirm },
        request.body,
        request.auth?.user.id ?? null,
      );
      return reply.status(201).send({ id, reference, message: CONTACT_MESSAGES.success });
    },
  );
};
