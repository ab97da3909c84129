import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

/** Every TypeScript file below `src` that is not a spec. */
const sources = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts') && !file.endsWith('spec.ts'))
  .map((file) => join(SRC, file));

describe('command and query handlers', () => {
  const handlers = sources.filter((file) => /@(Command|Query)Handler\(/.test(readFileSync(file, 'utf8')));

  it('are each in a *.handler.ts file', () => {
    expect(handlers.length).toBeGreaterThan(50);
    expect(handlers.filter((file) => !file.endsWith('.handler.ts')).map((file) => relative(SRC, file))).toEqual([]);
  });

  it('each have a unit spec beside them', () => {
    const without = handlers.filter((file) => !existsSync(file.replace(/\.ts$/, '.spec.ts'))).map((file) => relative(SRC, file));
    expect(without).toEqual([]);
  });
});
