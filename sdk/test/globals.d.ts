/** Defined by vitest.config.ts from package.json, as tsup defines it for the bundle. */
declare const __SDK_VERSION__: string;
