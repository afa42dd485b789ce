/**
 * A Subsonic call's parameters: the query string and, for a formPost call, the form body, together (a name may
 * repeat, as `id=1&id=2`). Values come as Fastify parsed them: a string, or an array of strings for a repeated name.
 */
export class SubsonicParams {
  private readonly values = new Map<string, string[]>();

  constructor(...sources: readonly unknown[]) {
    for (const source of sources) {
      if (typeof source !== 'object' || source === null) continue;
      for (const [name, value] of Object.entries(source)) {
        const list = (Array.isArray(value) ? value : [value]).filter(
          (item): item is string => typeof item === 'string',
        );
        this.values.set(name, [...(this.values.get(name) ?? []), ...list]);
      }
    }
  }

  /** The first value of `name`; an empty value counts as none. */
  get(name: string): string | undefined {
    const value = this.values.get(name)?.[0];
    return value === '' ? undefined : value;
  }

  /** Every non-empty value of a repeatable parameter (`id=1&id=2`), in order. */
  getAll(name: string): string[] {
    return (this.values.get(name) ?? []).filter((value) => value !== '');
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  /** Whether the call names the parameter at all, even with an empty value (`u=`). */
  given(name: string): boolean {
    return this.values.has(name);
  }
}
