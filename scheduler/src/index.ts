export { cronProblem, nextOccurrences, type OccurrenceBounds } from './occurrences.js';
export { nextRetryDelay } from './retry-policy.js';
