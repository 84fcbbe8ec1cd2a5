import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';

export const SIGNING_KEYS_FILE = 'oidc-jwks.json';

/**
 * The demo issuer's private signing keys (a JWKS), generated once into DATA_DIR so ID tokens
 * stay verifiable across restarts. When two processes start together on one DATA_DIR, the
 * second reads the first one's keys.
 */
export async function loadSigningKeys(dataDir: string): Promise<{ keys: JWK[] }> {
  const file = path.resolve(dataDir, SIGNING_KEYS_FILE);
  const existing = readJwks(file);
  if (existing) return existing;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
  const jwk = await exportJWK(privateKey);
  const key: JWK = { ...jwk, kid: await calculateJwkThumbprint(jwk), alg: 'RS256', use: 'sig' };
  mkdirSync(path.dirname(file), { recursive: true });
  // Written aside, then linked into place: atomic, and refused (EEXIST) when another process won the race.
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify({ keys: [key] }), { mode: 0o600 });
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temporary);
  }
  const stored = readJwks(file);
  if (!stored) throw new Error(`could not read the OIDC signing keys in ${file}`);
  return stored;
}

function readJwks(file: string): { keys: JWK[] } | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { keys?: JWK[] };
    return Array.isArray(parsed.keys) && parsed.keys.length > 0 ? { keys: parsed.keys } : undefined;
  } catch {
    return undefined;
  }
}
