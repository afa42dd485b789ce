export * from './schemas.js';
export * from './endpoints/index.js';
