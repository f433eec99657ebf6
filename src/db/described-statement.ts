// A named statement that asks PostgreSQL for its row description once per connection.
//
// node-postgres runs a named statement as Parse (first time on the connection only), Bind,
// Describe portal, Execute, Sync: the Describe makes the server send the statement's
// RowDescription again on every execution, and the client decodes it (a field object per
// column, names, type ids) and rebuilds the row parsers from it. For the hot single reads (the
// settings group, an entity by id: db/raw.ts statementRows) that was ~3 KB of garbage and a
// parse per request for a description that cannot change while the statement is prepared
// (PostgreSQL refuses to run a prepared statement whose result type would change: "cached plan
// must not change result type"). So the first execution on a connection describes as before and
// keeps what the description produced (fields, parsers, the empty row); later executions of the
// same text send Bind, Execute, Sync and reuse it, as the `postgres` driver does. Any error drops
// the kept description, and the next execution describes again.
//
// It extends node-postgres' own Query (its Submittable): parsing, binding, row decoding, errors
// and the callbacks are pg's; only `prepare` and `handleRowDescription` differ.
import pg from 'pg';

/** What Result.addFields derived from a row description (pg/lib/result.js). */
interface Description {
  text: string;
  types: unknown;
  fields: unknown[];
  parsers: unknown[] | undefined;
  emptyRow: object | null;
}

/** pg's Result and Query members this class reads and sets (not in @types/pg). */
interface ResultInternals {
  _types: unknown;
  fields: unknown[];
  _parsers: unknown[] | undefined;
  _prebuiltEmptyResultObject: object | null;
}
interface ConnectionInternals {
  parsedStatements: Record<string, string>;
  bind(config: object): void;
  execute(config: object): void;
  sync(): void;
}
interface QueryInternals {
  name?: string;
  text: string;
  values?: unknown[];
  types?: unknown;
  binary?: boolean;
  portal: string;
  rows?: number;
  callback?: unknown;
  _result: ResultInternals;
  _accumulateRows: boolean;
  prepare(connection: ConnectionInternals): void;
  handleRowDescription(message: { fields: unknown[] }): void;
  handleError(error: unknown, connection: ConnectionInternals): void;
  listeners(event: string): unknown[];
}

/** Per connection (pg's Connection object), by statement name. */
const descriptions = new WeakMap<object, Map<string, Description>>();

const Query = pg.Query as unknown as new (text: string, values?: unknown[]) => QueryInternals;

/** What a statement says: the only QueryConfig members this class passes on (see the constructor). */
export type StatementConfig = Pick<pg.QueryConfig, 'text' | 'values' | 'name' | 'types'>;
// How pg maps a bound value to its wire form (what its own prepare passes to bind).
const prepareValue = (pg as unknown as { utils?: { prepareValue?: unknown } }).utils?.prepareValue;
if (typeof prepareValue !== 'function') throw new Error('node-postgres no longer exports utils.prepareValue: src/db/described-statement.ts needs a look');

export class DescribedStatement extends Query {
  private connection: ConnectionInternals | null = null;

  constructor(config: StatementConfig) {
    // Text and values, not the config object: pg copies a config object through its property
    // descriptors (utils.cloneQueryConfig: Object.defineProperties of getOwnPropertyDescriptors),
    // ~3% of an entity read's CPU profile (bench/profile.ts entity; same-run A/B B/A 0.965). For a
    // string it copies nothing.
    super(config.text, config.values);
    this.name = config.name;
    if (config.types) {
      this.types = config.types;
      this._result._types = config.types; // what pg's constructor gives its Result
    }
  }

  override prepare(connection: ConnectionInternals): void {
    this.connection = connection;
    const kept = this.name ? descriptions.get(connection)?.get(this.name) : undefined;
    // Only for the text the connection has parsed under this name, decoded with the same types,
    // and a whole result at once (no `rows` paging).
    if (!kept || this.rows || kept.text !== this.text || kept.types !== this.types || connection.parsedStatements[this.name as string] !== this.text) {
      super.prepare(connection);
      return;
    }
    try {
      connection.bind({ portal: this.portal, statement: this.name, values: this.values, binary: this.binary, valueMapper: prepareValue });
    } catch (error) {
      // What pg's prepare does when a value cannot be bound: the statement is not run.
      connection.sync();
      this.handleError(error, connection);
      return;
    }
    const result = this._result;
    result.fields = kept.fields;
    result._parsers = kept.parsers;
    result._prebuiltEmptyResultObject = kept.emptyRow;
    this._accumulateRows = Boolean(this.callback) || !this.listeners('row').length;
    connection.execute({ portal: this.portal, rows: undefined });
    connection.sync();
  }

  override handleRowDescription(message: { fields: unknown[] }): void {
    super.handleRowDescription(message);
    if (!this.name || !this.connection || this.rows) return;
    let byName = descriptions.get(this.connection);
    if (!byName) descriptions.set(this.connection, (byName = new Map()));
    const result = this._result;
    byName.set(this.name, { text: this.text, types: this.types, fields: result.fields, parsers: result._parsers, emptyRow: result._prebuiltEmptyResultObject });
  }

  override handleError(error: unknown, connection: ConnectionInternals): void {
    if (this.name) descriptions.get(connection)?.delete(this.name);
    super.handleError(error, connection);
  }
}

/**
 * Runs a statement as a DescribedStatement (an unnamed one is pg's own Query: parsed and described
 * every time); resolves with pg's result, as `query` does.
 */
export function queryDescribed(queryable: pg.Pool | pg.PoolClient, config: StatementConfig): Promise<pg.QueryResult> {
  const statement = new DescribedStatement(config);
  // The pool attaches its own callback (it releases the client there) and returns a promise.
  if (queryable instanceof pg.Pool) return queryable.query(statement as never) as unknown as Promise<pg.QueryResult>;
  return new Promise((resolve, reject) => {
    statement.callback = (error: Error | null, result: pg.QueryResult) => (error ? reject(error) : resolve(result));
    queryable.query(statement as never);
  });
}
