import pg from 'pg';

/** The parts of pg's Query this sets: its callback is taken by the constructor, its name read when it is sent. */
type NamedQuery = pg.Query & { name?: string };
type QueryConstructor = new (text: string, values: unknown[], callback: (error: Error | null, result: pg.QueryResult) => void) => NamedQuery;

/**
 * Runs a named (prepared) statement on `client`. The query is built from its text and then named,
 * because pg copies every config object it is given before it runs it (a few µs, measured on every
 * record's INSERT); errors are pg's own, a `DatabaseError` for a statement the server refused.
 */
export function runPrepared(client: pg.ClientBase, name: string, text: string, values: unknown[]): Promise<pg.QueryResult> {
  return new Promise((resolve, reject) => {
    const query = new (pg.Query as unknown as QueryConstructor)(text, values, (error, result) => (error ? reject(error) : resolve(result)));
    query.name = name;
    client.query(query);
  });
}
