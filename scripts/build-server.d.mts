/** apps/server/dist/main.js. */
export const serverEntry: string;
/** True when the bundle is missing or older than any server or contract source. */
export function serverBuildIsStale(): boolean;
export function buildServer(): Promise<{ code: number; ms: number }>;
/** Builds the server bundle when it is stale; code 0 on success. */
export function ensureServerBuilt(): Promise<{ code: number; ms: number }>;
/** How `npm start` and the benchmark run the built server: `[command, args, env to add]`. */
export function serverCommand(): [string, string[], Record<string, string>];
