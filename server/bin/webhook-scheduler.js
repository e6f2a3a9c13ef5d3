#!/usr/bin/env node
// The Node.js version is checked before anything else loads: on an older Node.js a dependency
// (undici) dies while loading with an error that says nothing of the cause. Keep the code above the
// import to what every Node.js still in use can run.
import { readFileSync } from 'node:fs';

const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const needed = /(\d+)\.(\d+)/.exec(engines.node);
const [major, minor] = process.versions.node.split('.').map(Number);
if (needed && (major < Number(needed[1]) || (major === Number(needed[1]) && minor < Number(needed[2])))) {
  process.stderr.write(
    `webhook-scheduler needs Node.js ${needed[1]}.${needed[2]} or newer, but it was started with Node.js ${process.version} (${process.execPath}). ` +
      `Install a newer Node.js (https://nodejs.org, or \`nvm install 24\`) and start it with that.\n`,
  );
  process.exit(1);
}

const { main } = await import('../dist/main.js');
await main(process.argv);
