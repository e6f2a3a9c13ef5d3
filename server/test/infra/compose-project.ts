import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../guide-samples.js';
import type { ContainerEngine } from './engine.js';

/** The version the image is labelled with: the contract's, which changesets writes at a release. */
export function releaseVersion(): string {
  const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'contract', 'package.json'), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

function revision(): string {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

/**
 * Builds the Containerfile as a user would, with the labels a release gets. Podman writes OCI images
 * by default, which have no HEALTHCHECK: `--format docker` keeps it.
 */
export async function buildImage(engine: ContainerEngine, tag: string): Promise<void> {
  const format = engine.name === 'podman' ? ['--format', 'docker'] : [];
  await engine.exec(
    [
      'build',
      ...format,
      '-f',
      'Containerfile',
      '-t',
      tag,
      '--build-arg',
      `VERSION=${releaseVersion()}`,
      '--build-arg',
      `REVISION=${revision()}`,
      '--build-arg',
      `CREATED=${new Date().toISOString()}`,
      '.',
    ],
    { timeoutMs: 20 * 60_000 },
  );
}

/** A compose project of the repository's compose file(s) under a name of its own. */
export interface ComposeProject {
  name: string;
  up(): Promise<void>;
  /** The container of a service (compose implementations name them differently). */
  container(service: string): Promise<string>;
  /** The address of this machine on the project's network: what its containers reach it at. */
  hostAddress(): Promise<string>;
  /** Removes the containers, the network and the volumes. */
  down(): Promise<void>;
  /** The project's volumes that still exist. */
  volumes(): Promise<string[]>;
}

export function composeProject(
  engine: ContainerEngine,
  files: string[],
  env: Record<string, string>,
): ComposeProject {
  const name = `wst-${randomBytes(3).toString('hex')}`;
  const compose = (args: string[], timeoutMs?: number) => engine.compose(name, files, args, env, timeoutMs);
  return {
    name,
    up: async () => {
      await compose(['up', '-d', '--no-build'], 5 * 60_000);
    },
    container: async (service) => {
      const names = await engine.exec([
        'ps',
        '-a',
        '--filter',
        `label=com.docker.compose.project=${name}`,
        '--filter',
        `label=com.docker.compose.service=${service}`,
        '--format',
        '{{.Names}}',
      ]);
      const first = names.split('\n').find((line) => line.trim() !== '');
      if (!first) throw new Error(`no container of service ${service} in project ${name}`);
      return first.trim();
    },
    hostAddress: async () =>
      gateway(JSON.parse(await engine.exec(['network', 'inspect', `${name}_default`]))),
    down: async () => {
      await compose(['down', '-v', '-t', '5'], 5 * 60_000);
    },
    volumes: async () =>
      (await engine.exec(['volume', 'ls', '--filter', `label=com.docker.compose.project=${name}`, '-q']))
        .split('\n')
        .filter((line) => line.trim() !== ''),
  };
}

interface NetworkInspection {
  subnets?: { gateway?: string }[];
  IPAM?: { Config?: { Gateway?: string }[] };
}

/** The bridge's gateway, from podman's (netavark) or Docker's `network inspect`. */
function gateway(inspected: NetworkInspection[]): string {
  const [network] = inspected;
  const address = network?.subnets?.[0]?.gateway ?? network?.IPAM?.Config?.[0]?.Gateway;
  if (!address) throw new Error(`no gateway in ${JSON.stringify(inspected)}`);
  return address;
}
