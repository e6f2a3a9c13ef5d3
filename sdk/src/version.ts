// Replaced at build time (tsup `define`, and vitest's for the tests) with package.json's version.
declare const __SDK_VERSION__: string;

/** The SDK's version, sent in the `user-agent` header. */
export const SDK_VERSION: string = __SDK_VERSION__;
