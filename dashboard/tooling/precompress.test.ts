import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { precompressDir } from './precompress.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'precompress-'));
  await mkdir(path.join(dir, 'assets'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const script = 'export function greet(name) { return `hello ${name}`; }\n'.repeat(100);

describe('precompressDir', () => {
  it('writes a brotli and a gzip copy of a text file that decompress to it', async () => {
    await writeFile(path.join(dir, 'assets', 'index-abc.js'), script);
    expect(await precompressDir(dir)).toEqual(['assets/index-abc.js.br', 'assets/index-abc.js.gz']);
    const br = await readFile(path.join(dir, 'assets', 'index-abc.js.br'));
    const gz = await readFile(path.join(dir, 'assets', 'index-abc.js.gz'));
    expect(brotliDecompressSync(br).toString()).toBe(script);
    expect(gunzipSync(gz).toString()).toBe(script);
    expect(br.length).toBeLessThan(script.length / 10);
  });

  it('leaves alone small files, files that are not text, and data that does not compress', async () => {
    await writeFile(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    await writeFile(path.join(dir, 'assets', 'logo.png'), script);
    await writeFile(path.join(dir, 'assets', 'random.json'), randomBytes(4096));
    expect(await precompressDir(dir)).toEqual([]);
  });
});
