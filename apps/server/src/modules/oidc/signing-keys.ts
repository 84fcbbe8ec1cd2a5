import { readFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Database } from '../../db/client.ts';
import { serverSecrets } from '../../db/schema/index.ts';
import { open, type Sealed, seal } from '../../lib/crypto.ts';

/** Where releases before the keys moved to the database kept them (read once, to adopt them). */
export const LEGACY_SIGNING_KEYS_FILE = 'oidc-jwks.json';
const SECRET_NAME = 'oidc-signing-keys';

export interface SigningKeyOptions {
  db: Database;
  /** ENCRYPTION_KEY: the keys are stored sealed with it. */
  encryptionKey: Buffer;
  /** DATA_DIR, where an older release may have left its keys. */
  dataDir: string;
  log: FastifyBaseLogger;
}

/**
 * The demo issuer's private signing keys (a JWKS), kept in the database sealed with
 * ENCRYPTION_KEY, so ID tokens stay verifiable across restarts and every instance on one
 * database publishes the same JWKS. The first instance to start creates them (adopting an older
 * release's `oidc-jwks.json` from DATA_DIR when there is one); instances racing to create them
 * all end with the one that was stored first. Keys that no longer open (ENCRYPTION_KEY was
 * changed) are replaced, with a warning: ID tokens signed before cannot be verified any more,
 * which only matters to a sign-in in flight.
 */
export async function loadSigningKeys(options: SigningKeyOptions): Promise<{ keys: JWK[] }> {
  const { db, encryptionKey, log } = options;
  const [row] = await db.select().from(serverSecrets).where(eq(serverSecrets.name, SECRET_NAME));
  if (row) {
    const stored = unsealJwks(row, encryptionKey);
    if (stored) return stored;
    log.warn('the demo OIDC issuer signing keys do not open with this ENCRYPTION_KEY; new keys replace them');
    // Compare-and-swap: of instances replacing unreadable keys together, the first one's keys stay.
    await db
      .update(serverSecrets)
      .set({ ...seal(JSON.stringify(await newJwks()), encryptionKey), createdAt: new Date() })
      .where(and(eq(serverSecrets.name, SECRET_NAME), eq(serverSecrets.iv, row.iv)));
  } else {
    const jwks = legacyJwks(options.dataDir) ?? (await newJwks());
    await db
      .insert(serverSecrets)
      .values({ name: SECRET_NAME, ...seal(JSON.stringify(jwks), encryptionKey) })
      .onConflictDoNothing();
  }
  const [winner] = await db.select().from(serverSecrets).where(eq(serverSecrets.name, SECRET_NAME));
  const keys = winner ? unsealJwks(winner, encryptionKey) : undefined;
  if (!keys) throw new Error('could not store the demo OIDC issuer signing keys');
  return keys;
}

async function newJwks(): Promise<{ keys: JWK[] }> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
  const jwk = await exportJWK(privateKey);
  return { keys: [{ ...jwk, kid: await calculateJwkThumbprint(jwk), alg: 'RS256', use: 'sig' }] };
}

/** The private JWKS `read` yields, or undefined when it throws or yields anything else. */
function jwksFrom(read: () => string): { keys: JWK[] } | undefined {
  try {
    const keys = (JSON.parse(read()) as { keys?: unknown } | null)?.keys;
    const usable =
      Array.isArray(keys) && keys.length > 0 && keys.every((key) => typeof key === 'object' && key !== null && 'kid' in key && 'd' in key);
    return usable ? { keys: keys as JWK[] } : undefined;
  } catch {
    return undefined;
  }
}

const unsealJwks = (row: Sealed, key: Buffer) => jwksFrom(() => open(row, key));
const legacyJwks = (dataDir: string) => jwksFrom(() => readFileSync(path.resolve(dataDir, LEGACY_SIGNING_KEYS_FILE), 'utf8'));
