import os from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Their own commands (vitest.infra.config.ts): minutes each, and a container engine.
    exclude: [...configDefaults.exclude, 'test/infra/**'],
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Integration files mostly wait on PostgreSQL, HTTP and child processes: even a 2-core machine
    // runs two at once (the default would be one).
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    // Each file importing the whole service anew took a third of the run (import 120 s of 355 s
    // here, 262 s of 685 s in CI). The files share no mutable module state: each builds its own app,
    // database and registry, and changes to the process (fake timers, environment) are undone.
    isolate: false,
  },
});
