import { defineConfig } from 'vitest/config';

// The tests that build and run the shipped artefacts: the container image with compose
// (`npm run test:containers`) and a rolling upgrade from the previous release (`npm run test:upgrade`).
// Kept out of `npm test`: they take minutes and need a container engine or a second build.
export default defineConfig({
  test: {
    include: ['test/infra/**/*.infra.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 1_800_000,
    pool: 'forks',
    maxWorkers: 1,
  },
});
