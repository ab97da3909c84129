import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Envelope, Job, JobResult, Reply } from './jobs.js';

/** Heap of the worker thread: a hostile message may cost it memory, never Toolplane's own heap. */
const WORKER_HEAP_MB = 512;

interface Waiting {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/**
 * Runs jobs (see jobs.ts) on one worker thread, in the order given, and answers their results as
 * structured clones (which keep `__proto__` keys as own properties, as JSON.parse does). The
 * thread starts on first use and never keeps the process alive by itself; when it dies (for
 * instance over its heap limit) its jobs fail and the next job starts a new one.
 */
export class OffThreadWorker {
  private worker?: Worker;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;

  constructor(private readonly script: URL) {}

  private scriptExists?: boolean;

  /**
   * True when the worker's script exists: it does in the build; runs of the TypeScript sources do
   * the work in place. Looked up once: it is asked on every large message and HTTP response.
   */
  get available(): boolean {
    this.scriptExists ??= existsSync(fileURLToPath(this.script));
    return this.scriptExists;
  }

  /** Runs `job`; the buffers in `transfer` are handed to the worker and must not be used afterwards. */
  run<J extends Job>(job: J, transfer: ArrayBuffer[] = []): Promise<JobResult<J>> {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.ref();
      worker.postMessage({ id, job } satisfies Envelope, transfer);
    });
  }

  /** Stops the thread; waiting jobs fail. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(new Error('the worker thread was stopped'));
    if (worker) await worker.terminate();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.script, { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const waiting = this.waiting.get(reply.id);
      if (!waiting) return;
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) worker.unref();
      if ('error' in reply) waiting.reject(new Error(reply.error));
      else waiting.resolve(reply.value);
    });
    const lost = (reason: string) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.failAll(new Error(reason));
    };
    worker.on('error', (error) => lost(`the worker thread failed: ${error.message}`));
    worker.on('exit', (code) => lost(`the worker thread exited with code ${code}`));
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const { reject } of waiting) reject(error);
  }
}

/** The process's worker thread. */
export const offThread = new OffThreadWorker(new URL('./worker.js', import.meta.url));
