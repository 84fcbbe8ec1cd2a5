import { WaitlistRequest, WaitlistResponse, waitlistMessages } from '@conductor/shared/schemas/waitlist';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/errors.ts';
import { ipRateLimit } from '../public-site/ip-rate-limit.ts';
import { joinWaitlist } from './waitlist.service.ts';

/** Sign-ups allowed per IP address and window: generous for an office behind one address, useless for a flood. */
export const WAITLIST_RATE_LIMIT = { points: 20, durationSeconds: 600 } as const;

/** `POST /v1/waitlist`: the coming-soon page's form and the footer's 'Stay updated' box. */
export const waitlistRoutes: FastifyPluginAsyncZod = async (app) => {
  const limit = ipRateLimit({
    name: 'waitlist',
    redis: app.context.redis,
    redisPrefix: app.context.env.GATEWAY_REDIS_PREFIX,
    ...WAITLIST_RATE_LIMIT,
  });

  app.post(
    '/v1/waitlist',
    {
      onRequest: limit,
      schema: {
        tags: ['Waitlist'],
        summary: 'Join the launch waitlist, or subscribe to product news',
        description:
          "Stores an e-mail address on one of two lists, named by `source`: `coming_soon_page` (the launch waitlist) or `footer` (the 'Stay updated' product news). An address is case-insensitively unique within its list. 201 on success, 409 if the address is already on that list (each list answers with its own messages), 400 for an invalid address, 429 when an IP sends too many sign-ups.",
        body: WaitlistRequest,
        response: { 201: WaitlistResponse },
      },
    },
    async (request, reply) => {
      const result = await joinWaitlist(app.context.database.db, request.body, app.context.clock.now());
      // The footer's box promises news, not a launch: its answers say so.
      const messages = waitlistMessages(request.body.source);
      if (result === 'already_listed') throw new AppError('conflict', messages.duplicate);
      reply.header('cache-control', 'no-store');
      return reply.status(201).send({ message: messages.success });
    },
  );
};
