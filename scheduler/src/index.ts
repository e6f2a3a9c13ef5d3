export { cronProblem, nextOccurrences } from './occurrences.js';
export {
  createSender,
  type Sender,
  type SenderOptions,
  type WebhookOutcome,
  type WebhookRequest,
} from './delivery/send.js';
