// Debian's Chromium through playwright-core, with the flags that keep it quiet on a closed network.
import { chromium } from 'playwright-core';
import { hostPaths } from '../hostPaths.mjs';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export async function launchBrowser() {
  return chromium.launch({ executablePath: hostPaths().chromium, headless: true, args: CHROMIUM_ARGS });
}
