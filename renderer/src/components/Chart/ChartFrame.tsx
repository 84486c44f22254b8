/**
 * The frame every chart is drawn in: the figure with its accessible name, the element plotly draws
 * into, a note while plotly loads (or if it cannot), and PNG/SVG export once drawn.
 */
import type { RefObject } from 'react';
import { exportChart } from './plotly';
import type { ChartState } from './plotly';
import './Chart.css';

export function ChartFrame({ plotRef, state, ariaLabel, exportName, height, testId, className = '', exportAt = 'top', extra }: {
  plotRef: RefObject<HTMLDivElement | null>;
  state: ChartState;
  ariaLabel: string;
  /** file name (without extension) of the export; no export buttons without it */
  exportName?: string | undefined;
  height?: number | undefined;
  testId: string;
  className?: string;
  exportAt?: 'top' | 'bottom';
  /** data attributes for tests (e.g. how many points are drawn) */
  extra?: Record<string, string | number>;
}) {
  return (
    <figure className={`chart ${className}`} aria-label={ariaLabel} style={height ? { minHeight: height } : undefined}>
      <div ref={plotRef} className="chart-plot" style={height ? { height } : undefined} data-testid={testId} data-state={state} {...extra} />
      {state === 'loading' && <p className="chart-note">Loading chart…</p>}
      {state === 'failed' && <p className="chart-note">The chart library could not be loaded.</p>}
      {exportName && state === 'ready' && (
        <figcaption className={`chart-export ${exportAt === 'bottom' ? 'chart-export-bottom' : ''}`}>
          <button type="button" className="link-button small" aria-label={`Export ${ariaLabel} as PNG`} onClick={() => void exportChart(plotRef, 'png', exportName)}>PNG</button>
          <button type="button" className="link-button small" aria-label={`Export ${ariaLabel} as SVG`} onClick={() => void exportChart(plotRef, 'svg', exportName)}>SVG</button>
        </figcaption>
      )}
    </figure>
  );
}
