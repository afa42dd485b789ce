import { CompiledQuery, type Compilable, type Kysely } from 'kysely';

/** Shapes kept per cache: an `in` list of each length up to a page's, for each statement that uses one. */
const SHAPES_MAX = 1_000;

function sameParameters(compiled: readonly unknown[], given: readonly unknown[]): boolean {
  return compiled.length === given.length && compiled.every((value, index) => Object.is(value, given[index]));
}

/**
 * Kysely builds and compiles a query on each call (an operation tree, then its SQL): for the statements a page runs on
 * every request that is a tenth of their cost. Here a statement whose SQL depends only on a shape key (which
 * statement, and the length of its id list) is compiled once per key; later calls run that SQL with their own
 * parameters. The caller names the parameters in the order the SQL takes them, and the first compilation of each key
 * checks that they are exactly the ones the query builder made, so a wrong order cannot go unnoticed.
 */
export class CompiledStatements {
  private readonly sqlByShape = new Map<string, string>();

  constructor(private readonly db: Kysely<never>) {}

  static of<DB>(db: Kysely<DB>): CompiledStatements {
    return new CompiledStatements(db as unknown as Kysely<never>);
  }

  /** The rows of `build()`, whose SQL is the same for every call with this `shape`, run with `parameters`. */
  async rows<Row>(shape: string, parameters: readonly unknown[], build: () => Compilable<Row>): Promise<Row[]> {
    const known = this.sqlByShape.get(shape);
    if (known !== undefined) {
      return (await this.db.executeQuery<Row>(CompiledQuery.raw(known, [...parameters]))).rows;
    }
    const compiled = build().compile();
    if (!sameParameters(compiled.parameters, parameters)) {
      throw new Error(`compiled statement ${shape}: its parameters are not the ones named`);
    }
    if (this.sqlByShape.size < SHAPES_MAX) this.sqlByShape.set(shape, compiled.sql);
    return (await this.db.executeQuery(compiled)).rows;
  }
}
