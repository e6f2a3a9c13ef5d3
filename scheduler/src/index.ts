export { cronProblem, nextOccurrences } from './occurrences.js';
