import { escapeHtml } from './html.ts'

/** One series of a {@link barChart}: one value per category. */
export interface BarSeries {
  name: string
  /** A CSS colour. */
  color: string
  values: number[]
}

/** What {@link barChart} draws. */
export interface BarChartOptions {
  /** Read by screen readers and shown as the chart's tooltip; also the `data-chart` id when `id` is absent. */
  title: string
  /** Stable id for tests and links (`data-chart`). */
  id: string
  categories: string[]
  series: BarSeries[]
  xLabel: string
  yLabel: string
  /** @default 420 */
  width?: number
  /** @default 220 */
  height?: number
}

/** The smallest whole number of the form 1, 2 or 5 × 10^k that is at least `raw` (1 for anything up to 1). */
function niceStep(raw: number): number {
  if (!(raw > 1)) return 1
  const power = 10 ** Math.floor(Math.log10(raw))
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power
}

/** An axis for counts: a whole-number step of 1, 2 or 5 × 10^k and a top that is a multiple of it. */
function countAxis(value: number): { max: number; step: number } {
  const step = niceStep(Math.max(1, value) / 4)
  return { max: Math.max(step, Math.ceil(Math.max(1, value) / step) * step), step }
}

/** Width of a tick label in the chart's 10px font (digits are about 6px wide), for the left margin. */
function tickLabelWidth(text: string): number {
  return text.length * 6.2
}

/**
 * A grouped bar chart as inline SVG (counts per category, one bar per series), with axes, integer ticks, a
 * legend when there is more than one series, and a `<title>` per bar giving its exact value.
 */
export function barChart(options: BarChartOptions): string {
  const width = options.width ?? 420
  const height = options.height ?? 220
  const legend = options.series.length > 1
  const { max, step } = countAxis(Math.max(0, ...options.series.flatMap((s) => s.values)))
  // Room on the left for the longest tick label beside the rotated y-axis label.
  const margin = { top: legend ? 26 : 14, right: 10, bottom: 42, left: Math.max(40, Math.ceil(26 + tickLabelWidth(String(max)))) }
  const plotW = width - margin.left - margin.right
  const plotH = height - margin.top - margin.bottom
  const ticks = Math.round(max / step)
  const y = (v: number): number => margin.top + plotH - (v / max) * plotH
  const slot = plotW / Math.max(1, options.categories.length)
  const barW = Math.max(2, (slot * 0.8) / Math.max(1, options.series.length))
  const parts: string[] = []
  parts.push(
    `<svg class="chart" data-chart="${escapeHtml(options.id)}" role="img" aria-label="${escapeHtml(options.title)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg">`,
    `<title>${escapeHtml(options.title)}</title>`,
  )
  for (let i = 0; i <= ticks; i++) {
    const v = step * i
    const ty = y(v).toFixed(1)
    parts.push(
      `<line x1="${margin.left}" x2="${width - margin.right}" y1="${ty}" y2="${ty}" class="grid"/>`,
      `<text x="${margin.left - 4}" y="${ty}" class="tick" text-anchor="end" dominant-baseline="middle">${v}</text>`,
    )
  }
  options.categories.forEach((category, ci) => {
    const x0 = margin.left + ci * slot + slot * 0.1
    options.series.forEach((series, si) => {
      const value = series.values[ci] ?? 0
      const top = y(value)
      const label = `${series.name}, ${category}: ${value}`
      parts.push(
        `<rect class="bar" data-series="${escapeHtml(series.name)}" data-category="${escapeHtml(category)}" data-value="${value}" x="${(x0 + si * barW).toFixed(1)}" y="${top.toFixed(1)}" width="${(barW - 1).toFixed(1)}" height="${(margin.top + plotH - top).toFixed(1)}" fill="${series.color}"><title>${escapeHtml(label)}</title></rect>`,
      )
    })
    parts.push(
      `<text x="${(margin.left + ci * slot + slot / 2).toFixed(1)}" y="${height - margin.bottom + 14}" class="tick" text-anchor="middle">${escapeHtml(category)}</text>`,
    )
  })
  parts.push(
    `<line x1="${margin.left}" x2="${width - margin.right}" y1="${margin.top + plotH}" y2="${margin.top + plotH}" class="axis"/>`,
    `<text x="${margin.left + plotW / 2}" y="${height - 6}" class="axis-label" text-anchor="middle">${escapeHtml(options.xLabel)}</text>`,
    `<text x="12" y="${margin.top + plotH / 2}" class="axis-label" text-anchor="middle" transform="rotate(-90 12 ${margin.top + plotH / 2})">${escapeHtml(options.yLabel)}</text>`,
  )
  if (legend) {
    options.series.forEach((series, si) => {
      const lx = margin.left + si * 110
      const ly = 6
      parts.push(
        `<rect x="${lx}" y="${ly}" width="10" height="10" fill="${series.color}"/>`,
        `<text x="${lx + 14}" y="${ly + 9}" class="legend">${escapeHtml(series.name)}</text>`,
      )
    })
  }
  parts.push('</svg>')
  return parts.join('')
}

/** Counts of `values` in `bins` equal-width bins over [0, 1]; 1 falls in the last bin. */
export function histogram01(values: ReadonlyArray<number>, bins = 10): number[] {
  const counts = new Array<number>(bins).fill(0)
  for (const value of values) {
    const index = Math.min(bins - 1, Math.max(0, Math.floor(value * bins)))
    counts[index] = (counts[index] ?? 0) + 1
  }
  return counts
}

/** Labels of {@link histogram01}'s bins: `0.0-0.1`, ..., `0.9-1.0`. */
export function histogram01Labels(bins = 10): string[] {
  return Array.from({ length: bins }, (_, i) => `${(i / bins).toFixed(1)}-${((i + 1) / bins).toFixed(1)}`)
}

/** Equal-width bins of task times for {@link barChart}: labels, counts, and the labels' unit. */
export interface TimeBins {
  labels: string[]
  counts: number[]
  unit: 'ms' | 's'
}

/**
 * Bins times (ms) from 0 in at most `maxBins` bins of a round width (1, 2 or 5 × 10^k ms), so that no two labels are
 * alike and each is short: milliseconds below a second, else seconds. The largest time falls in the last bin.
 */
export function timeBins(valuesMs: ReadonlyArray<number>, maxBins = 5): TimeBins {
  const times = valuesMs.filter((value) => Number.isFinite(value))
  const largest = times.reduce((max, value) => Math.max(max, value), 0)
  const width = niceStep(largest / maxBins)
  const bins = Math.max(1, Math.ceil(largest / width))
  const counts = new Array<number>(bins).fill(0)
  for (const value of times) {
    const index = Math.min(bins - 1, Math.max(0, Math.floor(value / width)))
    counts[index] = (counts[index] ?? 0) + 1
  }
  const unit = largest >= 1000 ? 's' : 'ms'
  const edge = (ms: number): string => (unit === 's' ? (ms / 1000).toFixed(width < 1000 ? 1 : 0) : String(ms))
  const labels = Array.from({ length: bins }, (_, i) => `${edge(i * width)}-${edge((i + 1) * width)}`)
  return { labels, counts, unit }
}
