import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';

const PALETTE = ['#2f6fde', '#d9480f', '#2b8a3e', '#ae3ec9', '#e8590c', '#1098ad', '#c2255c', '#5c940d'];

export interface Series {
  label: string;
  values: (number | null)[];
}

/** A time series chart (uPlot, canvas); `summary` says the same in words for screen readers. */
export function Chart(props: { title: string; times: number[]; series: Series[]; unit: string; summary: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const dark = matchMedia('(prefers-color-scheme: dark)').matches;
    const ink = dark ? '#c9d1d9' : '#333';
    const grid = dark ? '#30363d' : '#e5e5e5';
    const axis = { stroke: ink, grid: { stroke: grid }, ticks: { stroke: grid } };
    const plot = new uPlot(
      {
        width: Math.max(280, element.clientWidth),
        height: 220,
        legend: { show: true },
        scales: { x: { time: true } },
        axes: [axis, { ...axis, label: props.unit, values: (_self: uPlot, ticks: number[]) => ticks.map((tick) => String(Math.round(tick * 100) / 100)) }],
        series: [{}, ...props.series.map((series, index) => ({ label: series.label, stroke: PALETTE[index % PALETTE.length], width: 2, spanGaps: true }))],
      },
      [props.times, ...props.series.map((series) => series.values)] as uPlot.AlignedData,
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(280, element.clientWidth), height: 220 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [JSON.stringify(props.series), props.times.join()]);
  return (
    <figure class="chart">
      <figcaption>{props.title}</figcaption>
      <div ref={host} role="img" aria-label={`${props.title}: ${props.summary}`} />
    </figure>
  );
}
