import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * Checks what npm would publish, after `npm run build`: the declaration file stands alone (no
 * import of the contract, zod or anything else), the bundle imports nothing but ky (no Node-only
 * module), and the tarball holds only what users need. publint and attw check the rest.
 */

const problems: string[] = [];
const read = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');

const specifiers = (code: string) =>
  [...code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g)].map(
    (match) => match[1],
  );

const declarations = read('dist/index.d.ts');
for (const specifier of specifiers(declarations)) {
  problems.push(`dist/index.d.ts refers to "${specifier}": the published types must be self-contained`);
}
if (/\/\/\/\s*<reference/.test(declarations))
  problems.push('dist/index.d.ts has a /// <reference> directive');

for (const specifier of specifiers(read('dist/index.js'))) {
  if (specifier !== 'ky')
    problems.push(`dist/index.js imports "${specifier}": only ky may be imported at run time`);
}

const EXPECTED = ['CHANGELOG.md', 'LICENSE', 'README.md', 'dist/index.d.ts', 'dist/index.js', 'package.json'];
const [pack] = JSON.parse(
  execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { encoding: 'utf8' }),
) as [{ files: { path: string }[] }];
const files = pack.files.map((file) => file.path).sort();
if (JSON.stringify(files) !== JSON.stringify(EXPECTED)) {
  problems.push(`the tarball holds ${files.join(', ')}; expected ${EXPECTED.join(', ')}`);
}

if (problems.length > 0) {
  process.stderr.write(`${problems.join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(`package check passed: ${files.join(', ')}\n`);
