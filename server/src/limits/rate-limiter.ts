import type { ProcessCount } from './api-processes.js';
import { type Bucket, type Verdict, isIdle, takeToken } from './rate-limit.rules.js';

const PRUNE_AT = 10_000;

/** Token buckets per caller (API key or dashboard user) in this process. */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private lastAllowance = { rate: 1, burst: 1, processes: 1 };

  constructor(private readonly processes: ProcessCount) {}

  /** Takes one request for `caller` at `rate` per second with bursts of `burst`, key-wide. */
  take(caller: string, rate: number, burst: number, now: number): Verdict {
    const allowance = { rate, burst, processes: this.processes.live() };
    if (this.buckets.size >= PRUNE_AT) this.prune(now);
    const { bucket, verdict } = takeToken(this.buckets.get(caller), allowance, now);
    this.buckets.set(caller, bucket);
    this.lastAllowance = allowance;
    return verdict;
  }

  // Full buckets hold nothing worth keeping; pruning them bounds the memory per process.
  private prune(now: number): void {
    for (const [caller, bucket] of this.buckets) {
      if (isIdle(bucket, this.lastAllowance, now)) this.buckets.delete(caller);
    }
    if (this.buckets.size >= PRUNE_AT) this.buckets.clear();
  }
}
