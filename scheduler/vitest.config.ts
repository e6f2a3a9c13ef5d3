import { defineConfig } from 'vitest/config';

// Unit tests are pure; `*.int.test.ts` run against PostgreSQL (test/global-setup.ts), one database
// per file. `npm test` runs both; `npm run test:integration` only the latter.
export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['src/**/*.test.ts'], exclude: ['src/**/*.int.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['src/**/*.int.test.ts'],
          globalSetup: ['./test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          pool: 'forks',
        },
      },
    ],
  },
});
