import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { createApiKey } from '../api-keys/api-keys.service.ts';
import { insertUser } from '../users/users.repository.ts';

/**
 * A user (Pro plan unless told otherwise) with a sandbox test key (`cc_test_sk_…`): what the docs' examples
 * and snippets run with at build and test time. Test keys never reach an upstream provider.
 */
export async function createSandboxKey(
  app: FastifyInstance,
  plan: 'free' | 'pro' | 'enterprise' = 'pro',
): Promise<{ key: string; userId: string }> {
  const id = randomUUID();
  await insertUser(app.context.database.db, {
    id,
    email: `docs-${id.slice(0, 8)}@example.com`,
    name: 'Docs Examples',
    authMethod: 'email',
    plan,
    onboardingCompleted: true,
    verified: true,
  });
  const created = await createApiKey(
    app.context.database.db,
    id,
    { name: 'Docs examples', environment: 'test', permissions: ['api'] },
    app.context.clock.now(),
  );
  return { key: created.key, userId: id };
}
