import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROJECT_URL, USER_AGENT } from './user-agent.js';

interface PackageMetadata {
  name: string;
  homepage?: string;
  repository?: { type: string; url: string; directory?: string };
  bugs?: { url: string };
}

const read = (file: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8'));
const packages = ['package.json', 'sdk/package.json', 'contract/package.json', 'server/package.json'].map(
  (file) => [file, read(file) as PackageMetadata] as const,
);

describe('the delivery User-Agent', () => {
  it('names a URL that the package metadata declares', () => {
    expect(USER_AGENT).toBe(`WebhookScheduler/0.1 (+${PROJECT_URL})`);
    const declared = packages.flatMap(([, metadata]) => [metadata.homepage, metadata.repository?.url]);
    expect(declared.some((url) => url?.startsWith(PROJECT_URL))).toBe(true);
  });

  it.each(packages)('has %s declare the same project: homepage, repository and bugs', (file, metadata) => {
    const directory = file.includes('/') ? file.split('/')[0] : undefined;
    expect(metadata.homepage).toBe(
      directory ? `${PROJECT_URL}/tree/main/${directory}#readme` : `${PROJECT_URL}#readme`,
    );
    expect(metadata.repository).toEqual({
      type: 'git',
      url: `git+${PROJECT_URL}.git`,
      ...(directory ? { directory } : {}),
    });
    expect(metadata.bugs).toEqual({ url: `${PROJECT_URL}/issues` });
  });

  it('is the project the OpenAPI document names as its contact', () => {
    const document = read('docs/openapi.json') as { info: { contact: { url: string } } };
    expect(document.info.contact.url).toBe(`${PROJECT_URL}/issues`);
  });
});
