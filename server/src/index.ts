export { createApp, type AppDeps } from './app.js';
export { loadConfig, type Config } from './config.js';
export { startService, type Role, type RunningService } from './service.js';
