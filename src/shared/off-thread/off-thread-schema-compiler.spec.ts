import { SchemaCompiler } from '../json-schema/schema-compiler.js';
import { DEFAULT_SCHEMA_LIMITS } from '../json-schema/schema-limits.js';
import type { Job, JobResult } from './jobs.js';
import { OffThreadSchemaCompiler } from './off-thread-schema-compiler.js';
import { OffThreadWorker } from './off-thread-worker.js';

/** A worker that compiles in place and counts what it was asked to compile. */
class CountingWorker extends OffThreadWorker {
  compiled = 0;
  /** The next run fails as a dead worker thread's jobs do. */
  failNext = false;
  private readonly compiler = new SchemaCompiler(DEFAULT_SCHEMA_LIMITS, { standalone: true });

  constructor() {
    super(new URL('file:///nonexistent-worker.js'));
  }

  override get available(): boolean {
    return true;
  }

  override run<J extends Job>(job: J): Promise<JobResult<J>> {
    if (job.kind !== 'compile') throw new Error(`unexpected job ${job.kind}`);
    if (this.failNext) {
      this.failNext = false;
      return Promise.reject(new Error('worker exited'));
    }
    this.compiled += 1;
    return Promise.resolve(this.compiler.compileToCode(job.schema) as JobResult<J>);
  }
}

const schema = (property: string) => ({ type: 'object', properties: { [property]: { type: 'string' } } });

describe('OffThreadSchemaCompiler.verdict', () => {
  it('compiles a schema once, however often it is asked again (a refresh of an unchanged inventory)', async () => {
    const worker = new CountingWorker();
    const compiler = new OffThreadSchemaCompiler(DEFAULT_SCHEMA_LIMITS, worker);
    for (let round = 0; round < 3; round++) {
      for (const name of ['a', 'b', 'c']) expect(await compiler.verdict(schema(name))).toEqual({ usable: true });
    }
    expect(worker.compiled).toBe(3);
    // Another key order is another text: compiled again, with the same verdict.
    expect(await compiler.verdict({ properties: { a: { type: 'string' } }, type: 'object' })).toEqual({ usable: true });
    expect(worker.compiled).toBe(4);
  });

  it('remembers that a schema cannot be compiled, with its reason', async () => {
    const worker = new CountingWorker();
    const compiler = new OffThreadSchemaCompiler(DEFAULT_SCHEMA_LIMITS, worker);
    const broken = { type: 'object', properties: { a: { $ref: '#/definitions/missing' } } };
    const first = await compiler.verdict(broken);
    expect(first.usable).toBe(false);
    expect(await compiler.verdict(broken)).toEqual(first);
    expect(worker.compiled).toBe(1);
  });

  it('does not remember a failure of the worker itself', async () => {
    const worker = new CountingWorker();
    const compiler = new OffThreadSchemaCompiler(DEFAULT_SCHEMA_LIMITS, worker);
    worker.failNext = true;
    await expect(compiler.verdict(schema('a'))).rejects.toThrow('worker exited');
    expect(await compiler.verdict(schema('a'))).toEqual({ usable: true });
    expect(worker.compiled).toBe(1);
  });

  it('keeps a bounded number of verdicts, the most recently used', async () => {
    const worker = new CountingWorker();
    const compiler = new OffThreadSchemaCompiler(DEFAULT_SCHEMA_LIMITS, worker, 100);
    const total = 101;
    for (let i = 0; i < total; i++) await compiler.verdict(schema(`p${i}`));
    expect(worker.compiled).toBe(total);
    // The first one was the least recently used when the 101st arrived: it is compiled again.
    await compiler.verdict(schema('p0'));
    expect(worker.compiled).toBe(total + 1);
    await compiler.verdict(schema(`p${total - 1}`));
    expect(worker.compiled).toBe(total + 1);
  });
});
