import type { ManifestFileName } from './plugin-manifest.js';

export type JsonPathSegment = string | number;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const MAX_KEY_LENGTH = 64;

/** `server.json:packages[0].environmentVariables[1].name`; the bare file name for the document root. */
export function manifestPath(file: ManifestFileName, segments: readonly JsonPathSegment[]): string {
  let path = '';
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else if (IDENTIFIER.test(segment) && segment.length <= MAX_KEY_LENGTH) path += path === '' ? segment : `.${segment}`;
    else path += `[${JSON.stringify(truncate(segment, MAX_KEY_LENGTH))}]`;
  }
  return path === '' ? file : `${file}:${path}`;
}

/** Keeps user-supplied text in messages short. */
export function truncate(text: string, max = MAX_KEY_LENGTH): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
