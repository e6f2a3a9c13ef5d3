// Issue 12's aims read off one run of bench/delivery: throughput and CPU against the raw limit and the
// `SKIP LOCKED` floor measured in the same run (ratios, which hold across machines of different
// speeds), lateness, duplicates and losses.

interface Counted {
  events: number;
  unique: number;
  duplicates: number;
}

export interface RunFigures {
  throughput: Counted & {
    recordedPerSecond: number;
    cpuMicrosecondsPerDelivery: { service: number; postgres: number };
  };
  punctuality: Counted & { p50: number; p99: number };
  skipLockedFloor?:
    | { recordedPerSecond: number; cpuMicrosecondsPerDelivery: { queue: number; postgres: number } }
    | undefined;
}

const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;

export function againstAims(raw: { requestsPerSecond: number }, run: RunFigures) {
  const { throughput, punctuality, skipLockedFloor: floor } = run;
  const cpu = throughput.cpuMicrosecondsPerDelivery.service + throughput.cpuMicrosecondsPerDelivery.postgres;
  const floorCpu =
    floor && floor.cpuMicrosecondsPerDelivery.queue + floor.cpuMicrosecondsPerDelivery.postgres;
  return {
    throughputVsRaw: ratio(throughput.recordedPerSecond, raw.requestsPerSecond),
    throughputVsFloor: floor && ratio(throughput.recordedPerSecond, floor.recordedPerSecond),
    cpuMicrosecondsPerDelivery: cpu,
    cpuVsFloor: floorCpu && ratio(cpu, floorCpu),
    latenessMs: { p50: punctuality.p50, p99: punctuality.p99 },
    duplicates: throughput.duplicates + punctuality.duplicates,
    lost: throughput.events - throughput.unique + (punctuality.events - punctuality.unique),
  };
}
