declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the run's PostgreSQL (one per run), or null when only SQLite runs. */
    pgAdminUrl: string | null;
  }
}

export {};
