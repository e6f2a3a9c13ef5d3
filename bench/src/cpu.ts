// CPU time of processes from /proc (Linux): where a benchmark's time goes.
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';

const TICKS_PER_SECOND = 100;

async function stat(pid: number): Promise<{ ppid: number; cpuMs: number } | undefined> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (!text) return undefined;
  // Fields after the parenthesised command name: state ppid ... utime(14) stime(15) cutime(16)
  // cstime(17). The last two are of its children that ended and were waited for: without them, a
  // PostgreSQL backend that started and ended between two readings counted nothing.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  return { ppid: Number(fields[1]), cpuMs: (ticks * 1000) / TICKS_PER_SECOND };
}

/** CPU milliseconds used so far by `pid` and every process below it, those ended included. */
export async function treeCpuMs(pid: number): Promise<number> {
  const all = await readdir('/proc').catch(() => []);
  const stats = new Map<number, { ppid: number; cpuMs: number }>();
  await Promise.all(
    all
      .filter((name) => /^\d+$/.test(name))
      .map(async (name) => {
        const found = await stat(Number(name));
        if (found) stats.set(Number(name), found);
      }),
  );
  const inTree = new Set([pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [child, { ppid }] of stats) {
      if (inTree.has(ppid) && !inTree.has(child)) {
        inTree.add(child);
        grew = true;
      }
    }
  }
  return [...inTree].reduce((sum, member) => sum + (stats.get(member)?.cpuMs ?? 0), 0);
}

/** The postmaster of the embedded PostgreSQL under `dataDir`. */
export async function postmasterPid(dataDir: string): Promise<number> {
  const text = await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8');
  return Number(text.split('\n')[0]);
}
