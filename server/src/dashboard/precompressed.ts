import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { RequestHandler, Response } from 'express';

// The dashboard's build writes `name.br` and `name.gz` beside its larger files (see
// dashboard/tooling/precompress.ts); these send them to the clients that accept them.

type Encoding = 'br' | 'gzip';

/** Best first: brotli is about 15 % smaller than gzip on the dashboard's script. */
const ENCODINGS: [Encoding, string][] = [
  ['br', '.br'],
  ['gzip', '.gz'],
];

/** The encodings each file of `root` has a compressed copy in, by the file's URL path (`/assets/x.js`). */
export function findPrecompressed(root: string): Map<string, Set<Encoding>> {
  const found = new Map<string, Set<Encoding>>();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    const match = ENCODINGS.find(([, extension]) => entry.isFile() && entry.name.endsWith(extension));
    if (!match) continue;
    const [encoding, extension] = match;
    const original = path.join(entry.parentPath, entry.name.slice(0, -extension.length));
    const urlPath = `/${path.relative(root, original).split(path.sep).join('/')}`;
    found.set(urlPath, (found.get(urlPath) ?? new Set()).add(encoding));
  }
  return found;
}

interface Chosen {
  encoding: Encoding;
  /** The original file's extension, which decides the content type. */
  extension: string;
}

/**
 * Points a GET for a file with compressed copies at the best copy the client accepts; the static
 * handler after it sends that copy, and `labelPrecompressed` gives it its headers. Every answer
 * for such a file varies by Accept-Encoding, the uncompressed one too.
 */
export function choosePrecompressed(copies: Map<string, Set<Encoding>>): RequestHandler {
  return (req, res, next) => {
    const available = req.method === 'GET' || req.method === 'HEAD' ? copies.get(req.path) : undefined;
    if (!available) {
      next();
      return;
    }
    res.vary('Accept-Encoding');
    const best = ENCODINGS.find(([encoding]) => available.has(encoding) && req.acceptsEncodings(encoding));
    if (best) {
      const [encoding, extension] = best;
      const chosen: Chosen = { encoding, extension: path.extname(req.path) };
      res.locals.precompressed = chosen;
      req.url = req.path + extension + req.url.slice(req.path.length);
    }
    next();
  };
}

/**
 * express.static's `setHeaders`: a compressed copy goes out with its encoding and its original's
 * type. Set only once the file is found, so a copy deleted since start-up falls through cleanly.
 */
export function labelPrecompressed(res: Response): void {
  const chosen = res.locals.precompressed as Chosen | undefined;
  if (!chosen) return;
  res.setHeader('Content-Encoding', chosen.encoding);
  res.type(chosen.extension);
}
