/**
 * The import graph's rules (issue 12): no folder imports another that imports it back, no file cycles,
 * and packages depend one way only: contract ← scheduler ← server, contract ← sdk.
 * Run by `npm run lint` (the root's `lint:imports`).
 */
const workspace = (name) => `^(${name}/|node_modules/@webhook-scheduler/${name}/)`;

module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycles',
      comment: 'Two folders of the service that import each other: move what both need below both.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^server/src/' },
      // The files at the root (errors, config, logger below every folder; app, service, main above) are
      // not a folder of the house.
      to: { circular: true, viaOnly: { pathNot: '^server/src$' } },
    },
    {
      name: 'no-file-cycles',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'contract-imports-no-package',
      comment: 'The contract is what clients see: only zod and ts-rest.',
      severity: 'error',
      from: { path: '^contract/src/' },
      to: { path: workspace('(scheduler|server|sdk|dashboard|docs)') },
    },
    {
      name: 'scheduler-below-server',
      comment: 'The scheduler is a library with ports; nothing of the service.',
      severity: 'error',
      from: { path: '^scheduler/src/' },
      to: { path: workspace('(server|sdk|dashboard|docs)') },
    },
    {
      name: 'sdk-on-contract-only',
      severity: 'error',
      from: { path: '^sdk/src/' },
      to: { path: workspace('(scheduler|server|dashboard|docs)') },
    },
    {
      name: 'nothing-imports-the-server',
      comment: 'The service is the composition root; benchmarks and tests drive its binary.',
      severity: 'error',
      from: { pathNot: '^server/' },
      to: { path: workspace('server') },
    },
    {
      name: 'service-code-not-on-sdk',
      comment: 'The SDK is a client of the service; only the service tests use it.',
      severity: 'error',
      from: { path: '^server/src/', pathNot: '\\.test\\.ts$' },
      to: { path: workspace('sdk') },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Tests reach across the house on purpose.
    exclude: { path: ['(^|/)(dist|coverage)/', '\\.test\\.tsx?$', '^server/test/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
  },
};
