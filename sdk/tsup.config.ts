import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  platform: 'neutral',
  target: 'es2023',
  // One self-contained index.d.ts: the types generated from the contract are inlined, and nothing
  // of the contract or zod is referenced.
  dts: { entry: 'src/index.ts', compilerOptions: { composite: false, declarationMap: false } },
  tsconfig: 'tsconfig.build.json',
  define: { __SDK_VERSION__: JSON.stringify(version) },
  external: ['ky'],
  clean: true,
  sourcemap: false,
  treeshake: true,
});
