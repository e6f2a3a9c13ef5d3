import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, type BrowserContextOptions, chromium } from 'playwright-core';

/** Debian's Chromium (`apt-get install -y chromium`), or the one CHROMIUM_PATH names. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Whether the browser tests can run; when not, they are skipped with a loud message. */
export const hasChromium = existsSync(CHROMIUM_PATH);

if (!hasChromium) {
  process.stderr.write(
    `\n${'!'.repeat(78)}\n!! SKIPPING the dashboard's browser tests: no Chromium at ${CHROMIUM_PATH}.\n` +
      `!! Install it with \`apt-get install -y chromium\` (.ci/run does), or set CHROMIUM_PATH.\n${'!'.repeat(78)}\n\n`,
  );
}

// Without the networking flags Chromium keeps calling Google's hosts, which a closed network
// refuses many times over; --no-sandbox because the tests may run as root.
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A headless Chromium with a fresh profile, removed on close. */
export async function launchBrowser(options: BrowserContextOptions = {}): Promise<{
  context: BrowserContext;
  close(): Promise<void>;
}> {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'wst-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ARGS,
    ...options,
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
