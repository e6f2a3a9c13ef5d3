import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

const COMPRESSIBLE = /\.(?:js|css|html|svg|json|map|txt)$/;
/** Below this, a compressed copy saves less than the headers of its response cost. */
const MIN_BYTES = 1024;

/** The compressed copies the server can send instead of a file, by file extension. */
const ENCODERS: [extension: string, encode: (data: Buffer) => Promise<Buffer>][] = [
  [
    '.br',
    (data) =>
      brotli(data, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
        },
      }),
  ],
  ['.gz', (data) => gzipped(data, { level: constants.Z_BEST_COMPRESSION })],
];

/**
 * Writes `name.br` and `name.gz` next to every text file of `dir` (and below) of at least 1 KB,
 * each only when it is smaller than the file. Returns the paths written, relative to `dir`.
 */
export async function precompressDir(dir: string): Promise<string[]> {
  const written: string[] = [];
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const data = await readFile(file);
    if (data.length < MIN_BYTES) continue;
    for (const [extension, encode] of ENCODERS) {
      const compressed = await encode(data);
      if (compressed.length >= data.length) continue;
      await writeFile(file + extension, compressed);
      written.push(path.relative(dir, file + extension));
    }
  }
  return written.sort();
}

/**
 * A Vite plugin that precompresses the build's output with brotli and gzip, so the server sends
 * compressed files without compressing on every request.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'webhook-scheduler:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await precompressDir(outDir);
    },
  };
}
