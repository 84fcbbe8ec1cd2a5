import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

/** e2e runs against the built app served by the real server on a free port with a fresh DATA_DIR. */
const port = Number(process.env.E2E_PORT ?? 18_500 + Math.floor(Math.random() * 1000));
process.env.E2E_PORT = String(port);
const root = path.resolve(import.meta.dirname, '../..');
const dataDir = process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), `conductor-e2e-${port}-${Date.now()}`);
process.env.E2E_DATA_DIR = dataDir;

const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];

export default defineConfig({
  testDir: './e2e',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  // A step that takes 2 s on a quiet machine took 3.7 times as long on the slowest CI host seen.
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'off',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs },
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } } },
    { name: 'mobile', use: { ...devices['Desktop Chrome'], viewport: { width: 375, height: 740 }, isMobile: false, hasTouch: true } },
  ],
  webServer: [server(port, dataDir, 'home'), server(port + 1, `${dataDir}-waitlist`, 'waitlist')],
});

/** The second instance serves `/` as the coming-soon page (SITE_MODE=waitlist). */
export const WAITLIST_BASE_URL = `http://127.0.0.1:${port + 1}`;

function server(listenPort: number, directory: string, siteMode: 'home' | 'waitlist') {
  return {
    command: `node ${path.join(root, 'apps/server/src/server.ts')}`,
    url: `http://127.0.0.1:${listenPort}/v1/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    cwd: root,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: {
      PORT: String(listenPort),
      HOST: '127.0.0.1',
      DATA_DIR: directory,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      SITE_MODE: siteMode,
      ...(process.env.WEB_DIST_DIR ? { WEB_DIST_DIR: process.env.WEB_DIST_DIR } : {}),
    },
  };
}
