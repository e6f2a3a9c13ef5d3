// Where a service process's time went, from a V8 CPU profile (bench/scale's SCALE_PROFILE, or any
// `node --cpu-prof` run): each sample is counted once, in the first part of the house on its stack.
// Usage: npm run cpu-profile -w bench -- <file.cpuprofile> [fromS toS [secondsOfMinute [secondAtFrom]]]
//   fromS toS: the profile's seconds to count (bench/scale logs its window's); secondsOfMinute, e.g.
//   0,1: only the samples in those seconds of each minute, given the second of the minute at fromS
//   (10 by default: bench/scale's window starts at a minute's second 10).
import { readFile } from 'node:fs/promises';

interface CallFrame {
  functionName: string;
  url: string;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** First match wins, on any frame of the stack; the engine's own entries are named by the sample. */
const PARTS: [string, (frame: CallFrame) => boolean][] = [
  ['API requests (express, ts-rest)', (f) => /express|ts-rest|body-parser/.test(f.url)],
  ['reading PostgreSQL answers', (f) => /pg-protocol/.test(f.url) && f.functionName === 'parse'],
  ['sending statements to PostgreSQL', (f) => /\/pg\/lib\//.test(f.url) && f.functionName === 'submit'],
  ['outbound calls (undici)', (f) => /undici/.test(f.url)],
  ['scheduler', (f) => /scheduler\/(dist|src)/.test(f.url)],
  ['server (stores, jobs)', (f) => /server\/(dist|src)/.test(f.url)],
];
const ENGINE = new Set(['(idle)', '(garbage collector)', '(program)']);
/** A sample taken this long after the previous one waited for the CPU: the profiler ticks every ~1 ms. */
const LATE_SAMPLE_US = 2200;

function partsOf(profile: Profile): (id: number) => string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const known = new Map<number, string>();
  return (id) => {
    const cached = known.get(id);
    if (cached) return cached;
    const own = byId.get(id)!.callFrame.functionName;
    const stack: CallFrame[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at))
      stack.push(byId.get(at)!.callFrame);
    const part = ENGINE.has(own)
      ? own
      : (PARTS.find(([, test]) => stack.some(test))?.[0] ?? (own === 'writev' ? 'writev (other)' : 'other'));
    known.set(id, part);
    return part;
  };
}

const [file, fromS, toS, seconds, secondAtFrom = '10'] = process.argv.slice(2);
if (!file)
  throw new Error('usage: cpu-profile <file.cpuprofile> [fromS toS [secondsOfMinute [secondAtFrom]]]');
const profile = JSON.parse(await readFile(file, 'utf8')) as Profile;
const from = Number(fromS ?? 0) * 1e6;
const to = toS === undefined ? Infinity : Number(toS) * 1e6;
const onlySeconds = seconds?.split(',').map(Number);
const partOf = partsOf(profile);
const totals = new Map<string, { us: number; lateUs: number }>();
let at = 0;
let counted = 0;
profile.samples.forEach((id, i) => {
  at += profile.timeDeltas[i]!;
  const us = profile.timeDeltas[i + 1] ?? 0;
  if (at < from || at >= to) return;
  if (onlySeconds && !onlySeconds.includes(Math.floor((at - from) / 1e6 + Number(secondAtFrom)) % 60)) return;
  const part = partOf(id);
  const total = totals.get(part) ?? { us: 0, lateUs: 0 };
  total.us += us;
  if (us > LATE_SAMPLE_US) total.lateUs += us;
  totals.set(part, total);
  counted += us;
});
console.log(`${(counted / 1e6).toFixed(1)} s counted (of the profile's ${(at / 1e6).toFixed(1)} s)`);
for (const [part, { us, lateUs }] of [...totals].sort((a, b) => b[1].us - a[1].us))
  console.log(
    `${((100 * us) / counted).toFixed(1).padStart(5)} %  ${(us / 1e6).toFixed(1).padStart(6)} s` +
      `  (${(lateUs / 1e6).toFixed(1)} s after a wait for the CPU)  ${part}`,
  );
