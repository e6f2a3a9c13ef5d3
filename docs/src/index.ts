export { buildOpenApiDocument } from './openapi.js';
