// Preloaded into Toolplane by the benchmark (`node --expose-gc --import …/heap-probe.mjs`), since
// Toolplane has no heap endpoint: on SIGUSR2 it runs a full garbage collection and writes
// `process.memoryUsage()` to the file named by BENCH_HEAP_FILE (through a rename, so a reader never
// sees half of it). Nothing else: no timer, no listener besides the signal.
import { renameSync, writeFileSync } from 'node:fs';

const file = process.env.BENCH_HEAP_FILE;
if (file) {
  process.on('SIGUSR2', () => {
    globalThis.gc?.();
    writeFileSync(`${file}.tmp`, JSON.stringify({ at: Date.now(), ...process.memoryUsage() }));
    renameSync(`${file}.tmp`, file);
  });
}
