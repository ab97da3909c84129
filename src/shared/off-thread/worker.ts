import { parentPort } from 'node:worker_threads';
import { trimOversizedSchemas } from '../json-schema/listing-guard.js';
import { canonicalStoredJson } from '../database/stored-text.js';
import { parseYamlText } from '../yaml-text.js';
import { isRecord } from '../is-record.js';
import { holdsMoreValues } from '../value-count.js';
import { compileFailure, SchemaCompiler, type CompiledSchemaCode } from '../json-schema/schema-compiler.js';
import { validatorWithCodeCache } from '../json-schema/standalone-validator.js';
import type { SchemaLimits } from '../json-schema/schema-limits.js';
import type { CompileJob, Envelope, Job, ParseJob, Reply } from './jobs.js';

// Entry point of the worker thread (see OffThreadWorker): work whose cost a hostile upstream
// controls — parsing multi-megabyte messages, compiling large schemas, serializing the record of
// a call that carried them — runs here, so neither the
// work nor the garbage it leaves holds Toolplane's event loop.

const compilers = new Map<string, SchemaCompiler>();

function parse(job: ParseJob): unknown {
  const value = parseMessage(job);
  return job.asText ? JSON.stringify(value) : value;
}

function parseMessage(job: ParseJob): unknown {
  const value: unknown = JSON.parse(Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength).toString('utf8'));
  // Oversized schemas go first: the values that count are those Toolplane keeps.
  if (job.schemaLimits && isRecord(value) && isRecord(value.result) && Array.isArray(value.result.tools)) {
    trimOversizedSchemas(value.result, job.schemaLimits);
  }
  if (job.maxValues !== undefined && holdsMoreValues(value, job.maxValues)) {
    const message = `the upstream's message holds more than ${job.maxValues.toLocaleString('en-US')} values (Toolplane's limit)`;
    // A response fails its request at once; anything else is dropped.
    if (isRecord(value) && (typeof value.id === 'string' || typeof value.id === 'number') && ('result' in value || 'error' in value)) {
      return { jsonrpc: '2.0', id: value.id, error: { code: -32603, message } };
    }
    throw new Error(message);
  }
  return value;
}

function compile(job: CompileJob): CompiledSchemaCode {
  const result = compilerFor(job.limits).compileToCode(job.schema);
  if (!result.usable) return result;
  if (!job.code) return { usable: true, code: '' };
  // Run here once, so the event loop gets code V8 already compiled.
  try {
    return { ...result, cache: validatorWithCodeCache(result.code).cache };
  } catch (error) {
    return { usable: false, reason: compileFailure(error) };
  }
}

function compilerFor(limits: SchemaLimits): SchemaCompiler {
  const key = JSON.stringify(limits);
  let compiler = compilers.get(key);
  if (!compiler) compilers.set(key, (compiler = new SchemaCompiler(limits, { standalone: true })));
  return compiler;
}

function run(job: Job): unknown {
  switch (job.kind) {
    case 'parse':
      return parse(job);
    case 'compile':
      return compile(job);
    case 'yaml':
      return parseYamlText(job.text);
    case 'canonical':
      return job.values.map((value) => canonicalStoredJson(value));
  }
}

parentPort?.on('message', ({ id, job }: Envelope) => {
  let reply: Reply;
  try {
    reply = { id, value: run(job) };
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) };
  }
  try {
    parentPort!.postMessage(reply);
  } catch (error) {
    // Never leave the caller waiting, even for a value structured cloning cannot carry.
    parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies Reply);
  }
});
