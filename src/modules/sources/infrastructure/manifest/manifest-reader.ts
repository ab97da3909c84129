import { existsSync } from 'node:fs';
import { constants, open, stat } from 'node:fs/promises';
import path from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { truncate } from '../../domain/manifest/manifest-path.js';
import { type PluginJsonDocument, mapPluginJson } from '../../domain/manifest/plugin-json.js';
import type {
  ManifestFileName,
  ManifestMappingContext,
  ManifestProblem,
  ManifestReadResult,
} from '../../domain/manifest/plugin-manifest.js';
import { type ServerJsonDocument, mapServerJson } from '../../domain/manifest/server-json.js';
import { checkDocumentBudget } from './document-budget.js';
import { findJsonSyntaxError } from './json-syntax.js';
import { pluginJsonSchema } from './plugin-json.schema.js';
import { schemaProblems } from './schema-problems.js';
import { serverJsonSchema } from './server-json.schema.js';

export const MAX_MANIFEST_BYTES = 1024 * 1024;
/** Past this many, further problems are summarised in one last entry. */
export const MAX_MANIFEST_PROBLEMS = 100;

/** In order of precedence: server.json wins over plugin.json. */
const MANIFEST_FILES: readonly ManifestFileName[] = ['server.json', 'plugin.json'];

export interface ManifestReadOptions {
  /** 0-based package to use instead of the first stdio package. */
  packageIndex?: number;
}

/** Finds, parses, validates and maps the manifest of a plugin directory, reporting every problem at once. */
export class ManifestReader {
  async read(pluginDir: string, options: ManifestReadOptions = {}): Promise<ManifestReadResult> {
    const notes: string[] = [];
    const directoryProblem = await checkDirectory(pluginDir);
    if (directoryProblem) return { problems: [directoryProblem], notes };
    const dir = path.resolve(pluginDir);

    const found = await findManifestFiles(dir);
    if ('problem' in found) return { problems: [found.problem], notes };
    const [file, ...ignored] = found.files;
    if (file === undefined) {
      const message = `${truncate(pluginDir, 300)} holds neither server.json nor plugin.json`;
      return { problems: [{ path: 'pluginDir', message }], notes };
    }
    for (const other of ignored) notes.push(`${other} is ignored: ${file} takes precedence`);

    const loaded = await loadJson(path.join(dir, file), file);
    if ('problem' in loaded) return { problems: [loaded.problem], notes };

    const tooLarge = checkDocumentBudget(file, loaded.document);
    if (tooLarge.length > 0) return { problems: tooLarge, notes };

    const validate = validatorFor(file);
    if (!validate(loaded.document)) {
      return { problems: schemaProblems(file, validate.errors ?? [], loaded.document, MAX_MANIFEST_PROBLEMS), notes };
    }

    const context: ManifestMappingContext = { pluginDir: dir, exists: existsSync, packageIndex: options.packageIndex };
    const mapping =
      file === 'server.json'
        ? mapServerJson(loaded.document as ServerJsonDocument, context)
        : mapPluginJson(loaded.document as PluginJsonDocument, context);
    return { ...mapping, problems: capped(mapping.problems, file), notes };
  }
}

async function checkDirectory(pluginDir: string): Promise<ManifestProblem | undefined> {
  const problem = (message: string): ManifestProblem => ({ path: 'pluginDir', message });
  const shown = truncate(pluginDir, 300);
  if (pluginDir.trim() === '') return problem('must not be empty');
  if (pluginDir.includes('\0')) return problem('must not contain NUL characters');
  if (!path.isAbsolute(pluginDir)) return problem(`${shown} must be an absolute path`);
  try {
    const stats = await stat(pluginDir);
    return stats.isDirectory() ? undefined : problem(`${shown} is not a directory`);
  } catch (error) {
    return problem(`${shown} ${describeFsError(error)}`);
  }
}

async function findManifestFiles(dir: string): Promise<{ files: ManifestFileName[] } | { problem: ManifestProblem }> {
  const files: ManifestFileName[] = [];
  for (const file of MANIFEST_FILES) {
    try {
      await stat(path.join(dir, file));
      files.push(file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return { problem: { path: file, message: describeFsError(error) } };
    }
  }
  return { files };
}

/** Reads, decodes and parses a manifest file; any failure becomes a problem naming the file. */
async function loadJson(file: string, name: ManifestFileName): Promise<{ document: unknown } | { problem: ManifestProblem }> {
  const problem = (message: string) => ({ problem: { path: name, message } });

  let bytes: Buffer;
  try {
    const read = await readBounded(file);
    if (read === 'not-a-file') return problem('is not a regular file');
    if (read === 'too-large') return problem(`is larger than ${MAX_MANIFEST_BYTES} bytes (1 MiB)`);
    bytes = read;
  } catch (error) {
    return problem(describeFsError(error));
  }

  let text: string;
  try {
    // A leading BOM is dropped by the decoder.
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return problem('is not valid UTF-8 text');
  }

  try {
    return { document: JSON.parse(text) };
  } catch {
    const syntax = findJsonSyntaxError(text);
    return problem(
      syntax ? `is not valid JSON: ${syntax.reason} (line ${syntax.line}, column ${syntax.column})` : 'is not valid JSON',
    );
  }
}

/**
 * Reads at most MAX_MANIFEST_BYTES + 1 bytes through one handle, so the file cannot change
 * between the checks and the read; O_NONBLOCK keeps a FIFO put in its place from blocking the open.
 */
async function readBounded(file: string): Promise<Buffer | 'not-a-file' | 'too-large'> {
  const handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return 'not-a-file';
    if (stats.size > MAX_MANIFEST_BYTES) return 'too-large';
    const buffer = Buffer.alloc(MAX_MANIFEST_BYTES + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return length > MAX_MANIFEST_BYTES ? 'too-large' : buffer.subarray(0, length);
  } finally {
    await handle.close();
  }
}

function describeFsError(error: unknown): string {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'ENOENT':
      return 'does not exist';
    case 'ENOTDIR':
      return 'is not a directory';
    case 'EACCES':
    case 'EPERM':
      return 'cannot be read: permission denied';
    case 'ELOOP':
      return 'cannot be read: too many symbolic links';
    default:
      return `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'unknown error'})`;
  }
}

function capped(problems: ManifestProblem[], file: ManifestFileName): ManifestProblem[] {
  if (problems.length <= MAX_MANIFEST_PROBLEMS) return problems;
  const kept = problems.slice(0, MAX_MANIFEST_PROBLEMS);
  kept.push({ path: file, message: `${problems.length - MAX_MANIFEST_PROBLEMS} more problems not shown` });
  return kept;
}

let validators: Record<ManifestFileName, ValidateFunction> | undefined;

/** Schemas are compiled once per process, on first use. */
function validatorFor(file: ManifestFileName): ValidateFunction {
  if (!validators) {
    // The if/then sub-schemas test and require properties declared next to them, not inside them.
    const ajv = new Ajv.default({ allErrors: true, strict: true, strictTypes: false, strictRequired: false });
    addFormats.default(ajv, { mode: 'fast', formats: ['uri'] });
    validators = {
      'server.json': ajv.compile(serverJsonSchema),
      'plugin.json': ajv.compile(pluginJsonSchema),
    };
  }
  return validators[file];
}
