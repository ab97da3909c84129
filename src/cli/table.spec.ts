import { applyStyles, colors, colorState, useColor } from './colors.js';
import { formatFields, formatFixedHeader, formatFixedRow, formatTable } from './table.js';

describe('formatTable', () => {
  const rows = [
    { name: 'everything', health: 'healthy', tools: 15 },
    { name: 'gh', health: 'unhealthy', tools: 0 },
  ];
  const columns = [
    { header: 'NAME', value: (r: (typeof rows)[number]) => r.name },
    { header: 'TOOLS', value: (r: (typeof rows)[number]) => String(r.tools), align: 'right' as const },
    { header: 'HEALTH', value: (r: (typeof rows)[number]) => r.health },
  ];

  it('aligns every column under its header, numbers to the right, without trailing spaces', () => {
    expect(formatTable(rows, columns)).toBe(['NAME        TOOLS  HEALTH', 'everything     15  healthy', 'gh              0  unhealthy', ''].join('\n'));
  });

  it('measures widths on the plain text, so coloured cells stay aligned', () => {
    const c = colors(true);
    const styled = applyStyles(formatTable(rows, [columns[2]!, { ...columns[0]!, style: (t: string) => c.green(t) }]));
    const plain = styled.replaceAll('\u001b[32m', '').replaceAll('\u001b[39m', '');
    expect(plain).toBe(['HEALTH     NAME', 'healthy    everything', 'unhealthy  gh', ''].join('\n'));
    expect(styled).toContain('\u001b[32meverything\u001b[39m');
  });

  it('cuts long values with an ellipsis and keeps a cell on one line', () => {
    const out = formatTable([{ text: 'first line\nsecond line that goes on' }], [{ header: 'T', value: (r: { text: string }) => r.text, maxWidth: 12 }]);
    expect(out).toBe('T\nfirst line …\n');
  });

  it('keeps rows printed one at a time under their header, cutting long values to the column\'s width', () => {
    const fixed = [
      { header: 'TOOL', value: (r: { tool: string; ms: string; id: string }) => r.tool, width: 12 },
      { header: 'MS', value: (r: { tool: string; ms: string; id: string }) => r.ms, width: 4, align: 'right' as const },
      { header: 'ID', value: (r: { tool: string; ms: string; id: string }) => r.id, width: 3 },
    ];
    const text =
      formatFixedHeader(fixed) +
      formatFixedRow({ tool: 'ev__echo', ms: '3', id: 'a1' }, fixed) +
      formatFixedRow({ tool: 'a-source-with-a-long-name__tool', ms: '12345', id: 'b2-long' }, fixed);
    expect(text).toBe(['TOOL            MS  ID', 'ev__echo         3  a1', 'a-source-wi…  123…  b2-long', ''].join('\n'));
  });

  it('prints labelled fields aligned', () => {
    expect(formatFields([['id', '1'], ['last error', '-']])).toBe('id:          1\nlast error:  -\n');
  });
});

describe('colours', () => {
  it('are used only on a terminal, never with NO_COLOR, TERM=dumb or --no-color', () => {
    expect(useColor({ isTTY: true }, {})).toBe(true);
    expect(useColor({ isTTY: false }, {})).toBe(false);
    expect(useColor({}, {})).toBe(false);
    expect(useColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(useColor({ isTTY: true }, { NO_COLOR: '' })).toBe(true);
    expect(useColor({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
    expect(useColor({ isTTY: true }, {}, true)).toBe(false);
  });

  it('leave text untouched when off, and colour states by how they read', () => {
    expect(colors(false).red('x')).toBe('x');
    const c = colors(true);
    expect(applyStyles(c.red('x'))).toBe('\u001b[31mx\u001b[39m');
    expect(colorState(c, 'succeeded')).toBe(c.green('succeeded'));
    expect(colorState(c, 'tool_error')).toBe(c.red('tool_error'));
    expect(colorState(c, 'unhealthy')).toBe(c.red('unhealthy'));
    expect(colorState(c, 'degraded')).toBe(c.yellow('degraded'));
    expect(colorState(c, 'unchanged')).toBe(c.dim('unchanged'));
  });
});
