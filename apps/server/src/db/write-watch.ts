import {
  AliasNode,
  DeleteQueryNode,
  IdentifierNode,
  SchemableIdentifierNode,
  TableNode,
  UpdateQueryNode,
  type Kysely,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';

/** The table names of an update's target or a delete's `from` (aliases looked through). */
function tableNames(node: OperationNode | undefined): string[] {
  if (node === undefined) return [];
  if (AliasNode.is(node)) return tableNames(node.node);
  if (TableNode.is(node)) return tableNames(node.table);
  if (SchemableIdentifierNode.is(node)) return [node.identifier.name];
  if (IdentifierNode.is(node)) return [node.name];
  return [];
}

function changedTables(node: RootOperationNode): { updated: string[]; deleted: string[] } {
  if (UpdateQueryNode.is(node)) return { updated: tableNames(node.table), deleted: [] };
  if (DeleteQueryNode.is(node)) return { updated: [], deleted: node.from.froms.flatMap((from) => tableNames(from)) };
  return { updated: [], deleted: [] };
}

/**
 * Counts this process's writes that may end or change a signed-in session or a Subsonic API key's access: an update of
 * `users` (role, premium, password, app keys) and a delete from `users`, `sessions` or `subsonic_api_keys`, made
 * through the query builder. The count moves before
 * such a statement runs and again after it, so a read that began before it ended never carries the count that
 * follows it. The session store's memory of who a token is (sessions/session-store.ts), and the API keys' of whose a
 * key is (modules/subsonic/api-keys.service.ts), stay valid only while the count stays where it was; writes of other processes are bounded by its time limit instead.
 */
export class SessionWrites implements KyselyPlugin {
  private count = 0;
  /** The writes running now (by Kysely's query id), to move the count again when each ends. */
  private readonly running = new WeakSet<object>();

  /** The current count: compare later to learn whether such a write happened in between. */
  get generation(): number {
    return this.count;
  }

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    if (this.touches(node)) {
      this.count += 1;
      this.running.add(queryId);
    }
    return node;
  }

  transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.running.delete(queryId)) this.count += 1;
    return Promise.resolve(result);
  }

  private touches(node: RootOperationNode): boolean {
    const { updated, deleted } = changedTables(node);
    return (
      updated.includes('users') ||
      deleted.includes('users') ||
      deleted.includes('sessions') ||
      deleted.includes('subsonic_api_keys')
    );
  }
}

const watches = new WeakMap<Kysely<never>, SessionWrites>();

/** Records that `db` runs every query through `watch` (createDatabase does). */
export function watchSessionWrites<DB>(db: Kysely<DB>, watch: SessionWrites): void {
  watches.set(db as unknown as Kysely<never>, watch);
}

/** The watch of writes `db` reports to, or undefined for a database opened without one. */
export function sessionWritesOf<DB>(db: Kysely<DB>): SessionWrites | undefined {
  return watches.get(db as unknown as Kysely<never>);
}
