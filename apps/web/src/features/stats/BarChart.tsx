import { useEffect, useId, useRef } from 'react';
import { Chart } from './bar-chart-setup.js';
import '../../ui/table.css';
import './BarChart.css';

export interface BarChartProps {
  /** What the chart shows: its caption, and the accessible name of its table. */
  title: string;
  /** One label per bar, in order. */
  labels: readonly string[];
  values: readonly number[];
  /** The header of the values' column, and the tooltip's unit ("Minutes"). */
  valueLabel: string;
  /** How a value reads in the table and the tooltip. */
  format?: (value: number) => string;
}

/** A colour of the app's theme (tokens.css), as the element sees it now. */
function themeColour(element: Element, name: string): string {
  return getComputedStyle(element).getPropertyValue(name).trim() || '#888888';
}

/**
 * A bar chart drawn by Chart.js, with its numbers as a table for whoever does not see the canvas: the canvas is
 * hidden from assistive technology, the table (under "Show the numbers") is the chart's text. Where the browser has no
 * 2D canvas (tests), only the table is there.
 */
export function BarChart({ title, labels, values, valueLabel, format = String }: BarChartProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const captionId = useId();

  useEffect(() => {
    const canvas = canvasRef.current;
    const context = canvas?.getContext('2d');
    if (!canvas || !context) return;
    const accent = themeColour(canvas, '--color-accent');
    const muted = themeColour(canvas, '--color-text-muted');
    const grid = themeColour(canvas, '--color-border');
    const chart = new Chart(context, {
      type: 'bar',
      data: {
        labels: [...labels],
        datasets: [{ label: valueLabel, data: [...values], backgroundColor: accent, borderRadius: 4 }],
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        scales: {
          x: { ticks: { color: muted, autoSkip: true, maxRotation: 0 }, grid: { display: false } },
          y: { beginAtZero: true, ticks: { color: muted, precision: 0 }, grid: { color: grid } },
        },
        plugins: {
          tooltip: { callbacks: { label: (item) => `${valueLabel}: ${format(Number(item.raw))}` } },
        },
      },
    });
    return () => {
      chart.destroy();
    };
  }, [labels, values, valueLabel, format]);

  return (
    <figure className="bar-chart" aria-labelledby={captionId}>
      <figcaption id={captionId} className="bar-chart__title">
        {title}
      </figcaption>
      <div className="bar-chart__canvas">
        <canvas ref={canvasRef} aria-hidden="true" />
      </div>
      <details className="bar-chart__numbers">
        <summary>Show the numbers</summary>
        <div className="table-wrap">
          <table className="table" aria-labelledby={captionId}>
            <thead>
              <tr>
                <th scope="col">{title}</th>
                <th scope="col">{valueLabel}</th>
              </tr>
            </thead>
            <tbody>
              {labels.map((label, index) => (
                <tr key={label}>
                  <th scope="row">{label}</th>
                  <td>{format(values[index] ?? 0)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
