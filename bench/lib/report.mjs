// The markdown report of one benchmark run.

const GOALS = {
  /** Toolplane's CPU per call under load (16 and 64 connections). */
  cpuUsPerCall: 300,
  addedP50Ms: 1,
  /** Throughput against mcp-proxy over stdio: at 16 and 64 connections, and at 1. */
  proxyRatioUnderLoad: 2,
  proxyRatioOneConnection: 1.2,
  memoryGrowthMB: 50,
  searchP50Ms: 20,
  toolsListMs: 200,
};

const f = (value, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : '—');
const int = (value) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '—');
const mb = (bytes) => bytes / 2 ** 20;
const WORKLOAD_LABEL = {
  'http-echo': 'HTTP echo',
  'stdio-everything': 'stdio everything',
  'stdio-lifecycles': 'stdio lifecycles',
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

export function renderReport({ machine, settings, startupMs, idle, runs, memory, catalog, refresh, replicas, executions, cpuProfile }) {
  const out = [];
  out.push('# Toolplane benchmark: tool calls through Toolplane vs. without it, and the catalog', '');
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
        ['execution records', `TOOLPLANE_EXECUTION_COMMIT=${machine.executionCommit} (${machine.executionCommit === 'async' ? 'answered once committed' : 'answered once flushed to disk'})`],
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

  const pairs = baselinePairs(runs);
  if (runs.length > 0) out.push(...callSections(runs, pairs));
  for (const run of memory) out.push(...memorySection(run));
  if (catalog) out.push(...catalogSection(catalog));
  if (refresh) out.push(...refreshSection(refresh));
  if (replicas) out.push(...replicasSection(replicas));
  if (runs.length > 0) out.push(...executionSection(executions));

  out.push('## Goals', '');
  const goals = [];
  goals.push(...callGoals(runs, pairs), ...memory.map(memoryGoal));
  if (catalog) goals.push(...catalogGoals(catalog));
  out.push(table(['goal', 'measured', 'verdict'], goals), '');
  return `${out.join('\n')}\n`;
}

/** Every (Toolplane row, baseline row) of the same workload and connections; the first baseline is the reference of the goals. */
function baselinePairs(runs) {
  const pairs = [];
  for (const r of runs.filter((r) => r.side === 'toolplane')) {
    const bases = runs.filter((b) => b.side === 'baseline' && b.workload === r.workload && b.connections === r.connections);
    bases.forEach((base, i) => pairs.push({ toolplane: r, base, reference: i === 0 }));
  }
  return pairs;
}

function callSections(runs, pairs) {
  const out = [];
  out.push('## Results', '');
  out.push(
    table(
      ['workload', 'connections', 'target', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'server CPU µs/call', 'of which kernel', 'PostgreSQL CPU µs/call', 'upstream CPU µs/call', 'load generator CPU µs/call', 'machine busy (cores)', 'other load (cores)'],
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
        int(r.loaderCpuUsPerCall),
        f(r.busyCores),
        f(r.otherCores),
      ]),
    ),
    '',
  );
  out.push(
    '"server CPU" is user+system CPU time of the process the load was sent to (Toolplane, mcp-proxy, or the echo server itself for "direct"), ' +
      'from `/proc/<pid>/stat`, divided by the calls it answered; it excludes the upstream processes; "of which kernel" is the system-time share of it (syscalls, loopback TCP, wake-ups). ' +
      '"PostgreSQL CPU" is that of Toolplane\'s embedded PostgreSQL processes over the same window, "upstream CPU" that of the MCP server behind (the echo server, or the server-everything process of Toolplane or of mcp-proxy). ' +
      '"load generator CPU" is that of the benchmark\'s own process, where autocannon sends the load, on the same cores; "machine busy" is what the whole machine used over the window, in cores ' +
      '(at the machine\'s core count, the row was bound by CPU: every process\'s CPU per call then adds to the time of a call). ' +
      '"other load" is the CPU that processes outside this benchmark used meanwhile (machine busy time from `/proc/stat` minus the benchmark\'s own processes), in cores: ' +
      'anything well above 0 means the row was measured on a busy machine.',
    '',
  );

  out.push('## Toolplane against the baseline', '');
  out.push(
    table(
      ['workload', 'connections', 'Toolplane', 'baseline', 'throughput Toolplane/baseline', 'added p50 ms', 'added p99 ms', 'Toolplane-recorded p50 / p95 ms'],
      pairs.map(({ toolplane, base }) => [
        WORKLOAD_LABEL[toolplane.workload],
        toolplane.connections,
        toolplane.target.replace(/^Toolplane /, ''),
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
    '"Toolplane-recorded" is the `durationMs` Toolplane stores with each execution (from `GET /api/v1/executions/stats`, over each measured half of the row; ' +
      'the mean of the two halves\' p50 and p95, weighted by their calls): ' +
      'resolving, validating and calling the tool, without the HTTP layer and without writing the execution record, which the answer waits for. ' +
      'The end-to-end p50 minus this is roughly what HTTP handling and the durable record add.',
    '',
  );

  return out;
}

function executionSection(executions) {
  const out = [];
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
  return out;
}

// The lifecycle comparison has goals of its own kind (none): it shows what a transient process or the sandbox costs.
const toolplaneTargets = (runs) => [...new Set(runs.filter((r) => r.side === 'toolplane' && r.workload !== 'stdio-lifecycles').map((r) => r.target))];

/** The goals of the calls, for every Toolplane target (REST, /mcp in each era). */
function callGoals(runs, pairs) {
  const goals = [];
  for (const name of toolplaneTargets(runs)) {
    const mine = pairs.filter((p) => p.reference && p.toolplane.target === name);
    const stdio = mine.filter((p) => p.toolplane.workload === 'stdio-everything' && p.toolplane.connections >= 16);
    if (stdio.length > 0) {
      const met = stdio.every((p) => p.toolplane.rps >= GOALS.proxyRatioUnderLoad * p.base.rps);
      goals.push([
        `${name}: throughput ≥ ${GOALS.proxyRatioUnderLoad}× mcp-proxy, stdio, ${stdio.map((p) => p.toolplane.connections).join(' and ')} connections`,
        stdio.map((p) => `${p.toolplane.connections} conns: ${f(p.toolplane.rps / p.base.rps)}×`).join('; '),
        met ? 'met' : '**missed**',
      ]);
    }
    const stdioOne = mine.find((p) => p.toolplane.workload === 'stdio-everything' && p.toolplane.connections === 1);
    if (stdioOne) {
      const ratio = stdioOne.toolplane.rps / stdioOne.base.rps;
      goals.push([`${name}: throughput ≥ ${GOALS.proxyRatioOneConnection}× mcp-proxy, stdio, 1 connection`, `${f(ratio)}×`, ratio >= GOALS.proxyRatioOneConnection ? 'met' : '**missed**']);
    }
    const oneConn = mine.find((p) => p.toolplane.workload === 'http-echo' && p.toolplane.connections === 1);
    if (oneConn) {
      const added = oneConn.toolplane.p50 - oneConn.base.p50;
      const modern = pairs.find((p) => !p.reference && p.toolplane === oneConn.toolplane);
      goals.push([
        `${name}: added p50 ≤ ${GOALS.addedP50Ms} ms over direct HTTP echo, 1 connection`,
        `${f(added)} ms over ${oneConn.base.target}${modern ? ` (${f(oneConn.toolplane.p50 - modern.base.p50)} ms over ${modern.base.target})` : ''}`,
        added <= GOALS.addedP50Ms ? 'met' : '**missed**',
      ]);
    }
    const rows = runs.filter((r) => r.target === name && r.workload !== 'stdio-lifecycles' && r.connections >= 16);
    if (rows.length === 0) continue;
    const worst = rows.reduce((a, b) => (b.cpuUsPerCall > a.cpuUsPerCall ? b : a));
    const best = rows.reduce((a, b) => (b.cpuUsPerCall < a.cpuUsPerCall ? b : a));
    goals.push([
      `${name}: CPU ≤ ${GOALS.cpuUsPerCall} µs per call under load (16 and 64 connections)`,
      `${int(best.cpuUsPerCall)}–${int(worst.cpuUsPerCall)} µs (worst: ${WORKLOAD_LABEL[worst.workload]}, ${worst.connections} conns)`,
      worst.cpuUsPerCall <= GOALS.cpuUsPerCall ? 'met' : best.cpuUsPerCall <= GOALS.cpuUsPerCall ? '**missed in some rows**' : '**missed**',
    ]);
  }
  return goals;
}

function memoryGoal(run) {
  const heapGrowth = mb(run.heapAfter.heapUsed - run.heapBefore.heapUsed);
  const rssGrowth = mb(run.rssAfter - run.rssBefore);
  const complete = !run.stoppedEarly;
  const met = heapGrowth < GOALS.memoryGrowthMB;
  return [
    `${run.target}: heap growth < ${GOALS.memoryGrowthMB} MB over ${int(run.requested)} calls`,
    `heap after GC ${signed(heapGrowth)} MB (RSS ${signed(rssGrowth)} MB) over ${int(run.calls)} calls`,
    !complete ? '**not measured in full**' : met ? 'met' : '**missed**',
  ];
}

function catalogGoals(catalog) {
  const goals = [
    [
      `catalog search p50 ≤ ${GOALS.searchP50Ms} ms, ${int(catalog.registration.tools)} tools`,
      `${f(catalog.search.p50)} ms (p95 ${f(catalog.search.p95)} ms), one at a time`,
      catalog.search.p50 <= GOALS.searchP50Ms ? 'met' : '**missed**',
    ],
  ];
  for (const [name, l] of Object.entries(catalog.lists).filter(([n]) => n.startsWith('/mcp'))) {
    goals.push([
      `${name} of ${int(l.tools)} tools ≤ ${GOALS.toolsListMs} ms (every page)`,
      `${f(l.p50, 1)} ms p50 over ${l.repetitions} (${l.pages} pages; first page ${f(l.firstPageP50)} ms)`,
      l.p50 <= GOALS.toolsListMs ? 'met' : '**missed**',
    ]);
  }
  return goals;
}

const signed = (value) => `${value >= 0 ? '+' : '−'}${f(Math.abs(value), 1)}`;

function memorySection(memory) {
  return [
    `## Memory over ${int(memory.requested)} calls: ${memory.target}`,
    '',
    table(
      ['', ''],
      [
        ['calls answered (2xx, right body)', `${int(memory.ok)} of ${int(memory.calls)} in ${f(memory.seconds, 1)} s${memory.stoppedEarly ? ' (**stopped at the time bound**)' : ''}`],
        ['errors', String(memory.errors)],
        ['heap used after a full GC, before → after (+5 s)', `${f(mb(memory.heapBefore.heapUsed), 1)} → ${f(mb(memory.heapAfter.heapUsed), 1)} MB (${signed(mb(memory.heapAfter.heapUsed - memory.heapBefore.heapUsed))} MB)`],
        ['heap total (V8), before → after', `${f(mb(memory.heapBefore.heapTotal), 1)} → ${f(mb(memory.heapAfter.heapTotal), 1)} MB`],
        ['external + array buffers, before → after', `${f(mb(memory.heapBefore.external), 1)} → ${f(mb(memory.heapAfter.external), 1)} MB`],
        ['Toolplane RSS before (before the GC)', `${f(mb(memory.rssBefore), 1)} MB`],
        ['Toolplane RSS right after', `${f(mb(memory.rssAfter), 1)} MB`],
        ['Toolplane RSS 5 s later', `${f(mb(memory.rssSettled), 1)} MB`],
        ['Toolplane RSS peak (sampled every 200 ms)', `${f(mb(memory.rssPeak), 1)} MB`],
        ['RSS growth (right after − before)', `${signed(mb(memory.rssAfter - memory.rssBefore))} MB`],
        ['RSS along the run', memory.milestones.map((m) => `${int(m.calls)}: ${f(mb(m.rss), 0)}`).join(', ') + ' (calls: MB)'],
        ['server CPU per call', `${int(memory.cpuUsPerCall)} µs`],
        ['other load (cores)', f(memory.otherCores)],
        ['`GET /health/live` before / after', `${memory.liveBefore} / ${memory.liveAfter}`],
      ],
    ),
    '',
    'Heap figures are `process.memoryUsage()` of Toolplane right after a full garbage collection, taken through `bench/lib/heap-probe.mjs` ' +
      '(preloaded with `--expose-gc`; it answers SIGUSR2), before the calls and 5 s after them. ' +
      'RSS is the resident set size of the process (`VmRSS` in `/proc/<pid>/status`): it includes the heap, code and buffers, ' +
      'and V8 does not hand freed heap back to the system at once.',
    '',
  ];
}

function catalogSection(catalog) {
  const { registration, firstMcpList, search, unsearched, concurrentSearch, lists, settings } = catalog;
  return [
    `## Catalog: ${int(registration.tools)} tools across ${int(registration.sources)} sources`,
    '',
    `${int(registration.sources)} stdio transient sources of \`test/fixtures/changing-inventory-server.mjs\`, ${int(settings.toolsPerSource)} tools each ` +
      `(generated by \`bench/lib/catalog-inventory.mjs\`), registered 4 at a time in ${f(registration.seconds, 1)} s (each registration spawns its server and discovers its tools). ` +
      `The first whole \`/mcp\` \`tools/list\` after the registrations took ${f(firstMcpList.totalMs, 1)} ms (first page ${f(firstMcpList.firstPageMs)} ms). ` +
      'Times are wall-clock in the benchmark process (fetch, keep-alive, the answer read and parsed), one request at a time unless said otherwise.',
    '',
    table(
      ['request', 'requests', 'p50 ms', 'p95 ms', 'max ms', 'rate', 'Toolplane CPU ms/request', 'PostgreSQL CPU ms/request'],
      [
        ['`GET /api/v1/tools?q=…`, one at a time', search, '—'],
        ['`GET /api/v1/tools?limit=1` (no search), one at a time', unsearched, '—'],
        [`\`GET /api/v1/tools?q=…\`, ${concurrentSearch.connections} at once`, concurrentSearch, `${int(concurrentSearch.rps)}/s`],
      ].map(([name, r, rate]) => [name, int(r.count), f(r.p50), f(r.p95), f(r.max), rate, f(r.toolplaneCpuMs, 1), f(r.postgresCpuMs, 1)]),
    ),
    '',
    table(
      ['listing (every page)', 'tools', 'pages', 'bytes', 'whole list p50 ms', 'max ms', 'first page p50 ms', 'Toolplane CPU ms/list', 'PostgreSQL CPU ms/list'],
      Object.entries(lists).map(([name, l]) => [
        name,
        int(l.tools),
        int(l.pages),
        int(l.bytes),
        f(l.p50, 1),
        f(l.max, 1),
        f(l.firstPageP50),
        f(l.toolplaneCpuMs, 0),
        f(l.postgresCpuMs, 0),
      ]),
    ),
    '',
    'CPU is user + system time from `/proc/<pid>/stat` (10 ms ticks) over the whole measurement, divided by its requests or listings; ' +
      'the `limit=1` row shows what every catalog answer costs besides the search itself (authentication, the `ETag` version of the listing, one row).',
    '',
    `Search queries (${search.rounds} rounds, one at a time; "found" is the first page of at most 100, "+" when there are more):`,
    '',
    table(
      ['q', 'found', 'p50 ms', 'p95 ms'],
      search.queries.map((q) => [`\`${q.query}\``, `${q.items}${q.more ? '+' : ''}`, f(q.p50), f(q.p95)]),
    ),
    '',
  ];
}

function refreshSection(refresh) {
  return [
    `## Refresh of ${refresh.rows[0]?.sources ?? 0} sources (${refresh.toolsPerSource} tools each)`,
    '',
    table(
      ['at once', 'target', 'all sources s', 'per refresh p50 ms', 'p95 ms', 'Toolplane CPU ms / refresh', 'PostgreSQL CPU ms / refresh'],
      refresh.rows.map((r) => [r.concurrency, r.target, f(r.seconds, 1), f(r.p50, 0), f(r.p95, 0), r.toolplaneCpuMs === undefined ? '—' : f(r.toolplaneCpuMs, 1), r.postgresCpuMs === undefined ? '—' : f(r.postgresCpuMs, 1)]),
    ),
    '',
    'Each source is a transient stdio plugin (test/fixtures/changing-inventory-server.mjs): a refresh through Toolplane starts it in its sandbox, lists every page, compares and stores the inventory; ' +
      'the direct row does the same listing with the SDK\'s stdio client (start, initialize, list, stop) and stores nothing.',
    '',
  ];
}

function replicasSection(replicas) {
  return [
    '## One replica against two, on one PostgreSQL',
    '',
    table(
      ['connections', 'setup', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'Toolplane CPU µs/call (all replicas)', 'PostgreSQL CPU µs/call'],
      replicas.rows.map((r) => [r.connections, r.setup, int(r.rps), f(r.p50), f(r.p99), int(r.errors), int(r.cpuUsPerCall), int(r.pgCpuUsPerCall)]),
    ),
    '',
    'REST invoke of the HTTP echo. Both setups use the same external-style PostgreSQL (`DATABASE_URL`, an embedded cluster the benchmark starts); ' +
      'with two replicas the connections are split between them, as a round-robin load balancer would. On one machine the replicas share its cores: ' +
      'two replicas show what sharing the database costs, not what a second machine would add.',
    '',
  ];
}
