// The markdown report of one benchmark run.

const GOALS = {
  cpuUsPerCall: 400,
  addedP50Ms: 1,
  memoryGrowthMB: 50,
};

const f = (value, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : '—');
const int = (value) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '—');
const mb = (bytes) => bytes / 2 ** 20;
const WORKLOAD_LABEL = {
  'http-echo': 'HTTP echo',
  'stdio-everything': 'stdio everything',
};

function table(header, rows) {
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const row of rows) lines.push(`| ${row.join(' | ')} |`);
  return lines.join('\n');
}

function errorText(run) {
  if (run.errors === 0) return '0';
  const parts = [];
  if (run.non2xx) {
    const codes = Object.entries(run.statusCodes)
      .filter(([code]) => !code.startsWith('2'))
      .map(([code, n]) => `${n}×${code}`);
    parts.push(codes.join(', '));
  }
  if (run.mismatches) parts.push(`${run.mismatches} wrong bodies`);
  if (run.connectionErrors) parts.push(`${run.connectionErrors} connection errors/timeouts`);
  return `**${run.errors}** (${parts.join('; ')})`;
}

export function renderReport({ machine, settings, startupMs, idle, runs, memory, executions, cpuProfile }) {
  const out = [];
  out.push('# Toolplane benchmark: tool calls through Toolplane vs. without it', '');
  out.push(`Run ${machine.date} on commit ${machine.commit}${cpuProfile ? ' — **Toolplane ran under `--cpu-prof`: numbers are not comparable**' : ''}.`, '');
  out.push(
    table(
      ['machine', ''],
      [
        ['Node.js', machine.node],
        ['cores (`nproc`)', machine.nproc],
        ['CPU', machine.cpuModel],
        ['memory', `${machine.memoryGiB} GiB`],
        ['kernel', machine.kernel],
        ['load average at start', machine.loadAverage],
        ['load generator', `autocannon ${machine.versions.autocannon} (in-process, one thread)`],
        ['stdio baseline', `mcp-proxy ${machine.versions['mcp-proxy']} (stateless streamable HTTP)`],
        ['stdio upstream', `@modelcontextprotocol/server-everything ${machine.versions['@modelcontextprotocol/server-everything']}`],
        ['HTTP upstream', `test/fixtures/http-echo-server.mjs (@modelcontextprotocol/server ${machine.versions['@modelcontextprotocol/server']})`],
      ],
    ),
    '',
  );
  out.push(
    `${settings.seconds} s measured per row, in two halves: the targets of a workload take turns in the order A B … B A, so drift weighs on all alike; ` +
      `${settings.warmupSeconds} s warm-up before each half, ${settings.firstWarmupSeconds} s first warm-up per target. ` +
      `Toolplane (with its embedded PostgreSQL, fresh data directory) was ready ${startupMs} ms after spawn. ` +
      'Everything ran on 127.0.0.1 on the same machine: load generator, Toolplane, PostgreSQL, proxy and upstreams share its cores. ' +
      `Idle (${f(idle.seconds, 1)} s without calls, after setup), Toolplane used ${f(idle.toolplaneCores * 100, 1)}% of a core and its PostgreSQL ${f(idle.postgresCores * 100, 1)}%.`,
    '',
  );

  out.push('## Results', '');
  out.push(
    table(
      ['workload', 'connections', 'target', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'server CPU µs/call', 'of which kernel', 'PostgreSQL CPU µs/call', 'upstream CPU µs/call', 'other load (cores)'],
      runs.map((r) => [
        WORKLOAD_LABEL[r.workload],
        r.connections,
        r.target,
        int(r.rps),
        f(r.p50),
        f(r.p99),
        errorText(r),
        int(r.cpuUsPerCall),
        Number.isFinite(r.systemShare) ? `${Math.round(r.systemShare * 100)}%` : '—',
        r.side === 'toolplane' ? int(r.pgCpuUsPerCall) : '—',
        r.target.startsWith('direct') ? '(= server)' : int(r.upstreamCpuUsPerCall),
        f(r.otherCores),
      ]),
    ),
    '',
  );
  out.push(
    '"server CPU" is user+system CPU time of the process the load was sent to (Toolplane, mcp-proxy, or the echo server itself for "direct"), ' +
      'from `/proc/<pid>/stat`, divided by the calls it answered; it excludes the upstream processes; "of which kernel" is the system-time share of it (syscalls, loopback TCP, wake-ups). ' +
      '"PostgreSQL CPU" is that of Toolplane\'s embedded PostgreSQL processes over the same window, "upstream CPU" that of the MCP server behind (the echo server, or the server-everything process of Toolplane or of mcp-proxy). ' +
      '"other load" is the CPU that processes outside this benchmark used meanwhile (machine busy time from `/proc/stat` minus the benchmark\'s own processes), in cores: ' +
      'anything well above 0 means the row was measured on a busy machine.',
    '',
  );

  out.push('## Toolplane against the baseline', '');
  const pairs = [];
  for (const r of runs.filter((r) => r.side === 'toolplane')) {
    // The first baseline of a workload is the reference of the goals.
    const bases = runs.filter((b) => b.side === 'baseline' && b.workload === r.workload && b.connections === r.connections);
    bases.forEach((base, i) => pairs.push({ toolplane: r, base, reference: i === 0 }));
  }
  out.push(
    table(
      ['workload', 'connections', 'baseline', 'throughput Toolplane/baseline', 'added p50 ms', 'added p99 ms', 'Toolplane-recorded p50 / p95 ms'],
      pairs.map(({ toolplane, base }) => [
        WORKLOAD_LABEL[toolplane.workload],
        toolplane.connections,
        base.target,
        `${f(toolplane.rps / base.rps)}×`,
        f(toolplane.p50 - base.p50),
        f(toolplane.p99 - base.p99),
        toolplane.recorded ? `${f(toolplane.recorded.p50)} / ${f(toolplane.recorded.p95)}` : '—',
      ]),
    ),
    '',
  );
  out.push(
    '"Toolplane-recorded" is the `durationMs` Toolplane stores with each execution (from `GET /api/v1/executions/stats`, over the window of the row): ' +
      'resolving, validating and calling the tool, without the HTTP layer and without writing the execution record, which the answer waits for. ' +
      'The end-to-end p50 minus this is roughly what HTTP handling and the durable record add.',
    '',
  );

  if (memory) {
    out.push(`## Memory over ${int(memory.requested)} calls`, '');
    out.push(
      table(
        ['', ''],
        [
          ['calls answered (2xx, right body)', `${int(memory.ok)} of ${int(memory.calls)} in ${f(memory.seconds, 1)} s${memory.stoppedEarly ? ' (**stopped at the time bound**)' : ''}`],
          ['errors', String(memory.errors)],
          ['Toolplane RSS before', `${f(mb(memory.rssBefore), 1)} MB`],
          ['Toolplane RSS right after', `${f(mb(memory.rssAfter), 1)} MB`],
          ['Toolplane RSS 5 s later', `${f(mb(memory.rssSettled), 1)} MB`],
          ['Toolplane RSS peak (sampled every 200 ms)', `${f(mb(memory.rssPeak), 1)} MB`],
          ['growth (right after − before)', `${f(mb(memory.rssAfter - memory.rssBefore), 1)} MB`],
          ['RSS along the run', memory.milestones.map((m) => `${int(m.calls)}: ${f(mb(m.rss), 0)}`).join(', ') + ' (calls: MB)'],
          ['server CPU per call', `${int(memory.cpuUsPerCall)} µs`],
          ['other load (cores)', f(memory.otherCores)],
          ['`GET /health/live` before / after', `${memory.liveBefore} / ${memory.liveAfter}`],
        ],
      ),
      '',
    );
    out.push(
      'Toolplane has no heap endpoint, so this is the resident set size of its process (`VmRSS` in `/proc/<pid>/status`): ' +
        'it includes the V8 heap, code and buffers, and V8 does not hand freed heap back to the system at once.',
      '',
    );
  }

  out.push('## Execution records', '');
  const created = Object.entries(executions.created);
  const totalCreated = created.reduce((n, [, c]) => n + c.count, 0);
  const { answered, sent } = executions.toolplaneCalls;
  out.push(
    table(
      ['source', 'records created', 'by status'],
      created.map(([name, c]) => [name, int(c.count), Object.entries(c.byStatus).map(([status, n]) => `${status} ${int(n)}`).join(', ')]),
    ),
    '',
  );
  const consistent = totalCreated >= answered && totalCreated <= sent;
  out.push(
    'Counted with `GET /api/v1/executions/stats?groupBy=source` before and after the run. ' +
      `Toolplane answered ${int(answered)} invocations (warm-ups and checks included); ${int(sent)} were sent, ` +
      'the difference being calls still in flight when a load window ended (autocannon closes those connections, so they end cancelled). ' +
      `${int(totalCreated)} records: ${consistent ? 'one per call, as expected' : '**not one per call**'}.`,
    '',
  );

  out.push('## Goals', '');
  const goals = [];
  const stdio = pairs.filter((p) => p.reference && p.toolplane.workload === 'stdio-everything' && p.toolplane.connections >= 16);
  if (stdio.length > 0) {
    const met = stdio.every((p) => p.toolplane.rps >= p.base.rps);
    goals.push([
      `throughput ≥ mcp-proxy, stdio, ${stdio.map((p) => p.toolplane.connections).join(' and ')} connections`,
      stdio.map((p) => `${p.toolplane.connections} conns: ${f(p.toolplane.rps / p.base.rps)}×`).join('; '),
      met ? 'met' : '**missed**',
    ]);
  }
  const oneConn = pairs.find((p) => p.reference && p.toolplane.workload === 'http-echo' && p.toolplane.connections === 1);
  if (oneConn) {
    const added = oneConn.toolplane.p50 - oneConn.base.p50;
    const modern = pairs.find((p) => !p.reference && p.toolplane.workload === 'http-echo' && p.toolplane.connections === 1);
    goals.push([
      `added p50 ≤ ${GOALS.addedP50Ms} ms over direct HTTP echo, 1 connection`,
      `${f(added)} ms over ${oneConn.base.target}${modern ? ` (${f(oneConn.toolplane.p50 - modern.base.p50)} ms over ${modern.base.target})` : ''}`,
      added <= GOALS.addedP50Ms ? 'met' : '**missed**',
    ]);
  }
  const tpRuns = runs.filter((r) => r.side === 'toolplane');
  if (tpRuns.length > 0) {
    const worst = tpRuns.reduce((a, b) => (b.cpuUsPerCall > a.cpuUsPerCall ? b : a));
    const best = tpRuns.reduce((a, b) => (b.cpuUsPerCall < a.cpuUsPerCall ? b : a));
    goals.push([
      `Toolplane CPU ≤ ${GOALS.cpuUsPerCall} µs per call`,
      `${int(best.cpuUsPerCall)}–${int(worst.cpuUsPerCall)} µs (worst: ${WORKLOAD_LABEL[worst.workload]}, ${worst.connections} conns)`,
      worst.cpuUsPerCall <= GOALS.cpuUsPerCall ? 'met' : best.cpuUsPerCall <= GOALS.cpuUsPerCall ? '**missed in some rows**' : '**missed**',
    ]);
  }
  if (memory) {
    const growth = mb(memory.rssAfter - memory.rssBefore);
    const complete = !memory.stoppedEarly;
    goals.push([
      `RSS growth < ${GOALS.memoryGrowthMB} MB over ${int(memory.requested)} calls`,
      `${f(growth, 1)} MB over ${int(memory.calls)} calls`,
      !complete ? '**not measured in full**' : growth < GOALS.memoryGrowthMB ? 'met' : '**missed**',
    ]);
  }
  out.push(table(['goal', 'measured', 'verdict'], goals), '');
  return `${out.join('\n')}\n`;
}
