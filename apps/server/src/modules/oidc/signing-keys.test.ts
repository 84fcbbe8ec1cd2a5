import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { serverSecrets } from '../../db/schema/index.ts';
import { LEGACY_SIGNING_KEYS_FILE, loadSigningKeys } from './signing-keys.ts';

let harness: TestApp;
const dataDirs: string[] = [];
const freshDataDir = () => {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'conductor-jwks-'));
  dataDirs.push(directory);
  return directory;
};

beforeAll(async () => {
  harness = await createTestApp();
});
afterAll(async () => {
  await harness.close();
  for (const directory of dataDirs) rmSync(directory, { recursive: true, force: true });
});

const warn = vi.fn();
const options = (overrides: { encryptionKey?: Buffer; dataDir?: string } = {}) => ({
  db: harness.app.context.database.db,
  encryptionKey: harness.app.context.secrets.encryptionKey,
  dataDir: freshDataDir(),
  log: { ...harness.app.log, warn } as unknown as TestApp['app']['log'],
  ...overrides,
});
const storedRow = async () => {
  const [row] = await harness.app.context.database.db.select().from(serverSecrets).where(eq(serverSecrets.name, 'oidc-signing-keys'));
  return row;
};

describe('demo issuer signing keys', () => {
  it('are the same for every instance on one database, whatever its DATA_DIR, and stored sealed', async () => {
    const first = await loadSigningKeys(options());
    expect(first.keys).toHaveLength(1);
    expect(first.keys[0]).toMatchObject({ alg: 'RS256', use: 'sig', kty: 'RSA' });
    expect(first.keys[0]?.d).toEqual(expect.any(String));
    // Another instance (its own DATA_DIR), and several starting at once, get the same keys.
    expect(await loadSigningKeys(options())).toEqual(first);
    const racing = await Promise.all(Array.from({ length: 4 }, () => loadSigningKeys(options())));
    for (const keys of racing) expect(keys).toEqual(first);
    // At rest the private key is ciphertext: neither the key material nor its id shows.
    const row = await storedRow();
    const raw = row?.ciphertext.toString('latin1') ?? '';
    expect(raw.length).toBeGreaterThan(1000);
    expect(raw).not.toContain(first.keys[0]?.d as string);
    expect(raw).not.toContain(first.keys[0]?.kid as string);
  });

  it('are replaced, with a warning, when ENCRYPTION_KEY changed and they no longer open', async () => {
    const before = await loadSigningKeys(options());
    warn.mockClear();
    const otherKey = randomBytes(32);
    const replaced = await loadSigningKeys(options({ encryptionKey: otherKey }));
    expect(replaced.keys[0]?.kid).not.toBe(before.keys[0]?.kid);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('do not open with this ENCRYPTION_KEY'));
    // From then on the new keys are the ones every instance with that key reads.
    expect(await loadSigningKeys(options({ encryptionKey: otherKey }))).toEqual(replaced);
  });

  it("adopt an older release's oidc-jwks.json from DATA_DIR when the database has none", async () => {
    await harness.app.context.database.db.delete(serverSecrets);
    const legacy = await loadSigningKeys(options()); // any valid JWKS, as the old file held
    await harness.app.context.database.db.delete(serverSecrets);
    const dataDir = freshDataDir();
    writeFileSync(path.join(dataDir, LEGACY_SIGNING_KEYS_FILE), JSON.stringify(legacy));
    expect(await loadSigningKeys(options({ dataDir }))).toEqual(legacy);
    // A file without private keys is not adopted.
    await harness.app.context.database.db.delete(serverSecrets);
    const publicOnly = freshDataDir();
    writeFileSync(
      path.join(publicOnly, LEGACY_SIGNING_KEYS_FILE),
      JSON.stringify({ keys: [{ kid: 'x', kty: 'RSA', n: 'AQAB', e: 'AQAB' }] }),
    );
    expect((await loadSigningKeys(options({ dataDir: publicOnly }))).keys[0]?.kid).not.toBe('x');
  });
});
