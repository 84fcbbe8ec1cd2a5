import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errors } from '../gateway-error.ts';
import type { GatewayRuntime } from '../gateway-runtime.ts';
import { ChatCall } from '../pipeline/chat-call.ts';

export const CHAT_COMPLETIONS_PATH = '/v1/chat/completions';

/** Prompts for long-context models outgrow the portal's 1 MB body limit. */
const CHAT_BODY_LIMIT = 8 * 1024 * 1024;

/** `POST /v1/chat/completions`: the body is validated inside the call so every outcome is metered. */
export function chatCompletionsRoutes(runtime: GatewayRuntime): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      CHAT_COMPLETIONS_PATH,
      {
        bodyLimit: CHAT_BODY_LIMIT,
        schema: {
          tags: ['Gateway'],
          summary: 'Create a chat completion',
          description:
            'OpenAI-compatible chat completion (JSON, or Server-Sent Events with `stream: true`). Routing per request with the `x-conductor-routing` header or the `conductor` body member.',
        },
      },
      async (request, reply) => {
        const principal = request.gatewayPrincipal;
        if (!principal) throw errors.missingKey();
        await new ChatCall(runtime, request, reply, principal).run();
        return reply;
      },
    );
  };
}
