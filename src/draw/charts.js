import { createHash } from 'node:crypto'
import path from 'node:path'
import { createCanvas, GlobalFonts } from '@napi-rs/canvas'
import { Chart, registerables } from 'chart.js'
import { visibleControls } from '../escape.js'
import { refuseUndrawable } from './chart-values.js'

// Renders Chart.js charts to PNG in Node. @napi-rs/canvas ships prebuilt Skia binaries as npm
// packages, so `npm install` needs no Cairo headers and no compiler (node-canvas, behind
// chartjs-node-canvas, needs both unless a prebuilt binary can be downloaded from GitHub).

Chart.register(...registerables)
Chart.defaults.font.family = "'DejaVu Sans', 'Liberation Sans', Arial, Helvetica, sans-serif"
Chart.defaults.font.size = 13
Chart.defaults.color = '#222222'

const whiteBackground = {
  id: 'whiteBackground',
  beforeDraw (chart) {
    const { ctx, width, height } = chart
    ctx.save()
    ctx.globalCompositeOperation = 'destination-over'
    ctx.fillStyle = '#ffffff'
    ctx.fillRect(0, 0, width, height)
    ctx.restore()
  }
}

let fontsChecked = false
function warnWithoutFonts () {
  if (fontsChecked) return
  fontsChecked = true
  if (GlobalFonts.families.length === 0) {
    process.stderr.write('log-bench: no system fonts found, chart text will be missing (install e.g. fonts-dejavu-core)\n')
  }
}

// Error bars for bar charts: a dataset with `errorBars: [[low, high] or null, …]` (one per bar) gets a
// whisker with caps from low to high over each bar. Chart.js has no error bars of its own.
const errorBars = {
  id: 'errorBars',
  afterDatasetsDraw (chart) {
    const { ctx } = chart
    chart.data.datasets.forEach((dataset, index) => {
      const meta = chart.getDatasetMeta(index)
      if (!dataset.errorBars || meta.hidden) return
      const scale = chart.scales[meta.yAxisID]
      meta.data.forEach((bar, i) => {
        const range = dataset.errorBars[i]
        if (!range || range[0] == null || range[1] == null) return
        const [top, bottom] = [scale.getPixelForValue(range[1]), scale.getPixelForValue(range[0])]
        const cap = Math.max(2, Math.min(6, bar.width / 4))
        ctx.save()
        ctx.strokeStyle = '#222222'
        ctx.lineWidth = 1.5
        ctx.beginPath()
        for (const [x0, y0, x1, y1] of [
          [bar.x, top, bar.x, bottom],
          [bar.x - cap, top, bar.x + cap, top],
          [bar.x - cap, bottom, bar.x + cap, bottom]
        ]) {
          ctx.moveTo(x0, y0)
          ctx.lineTo(x1, y1)
        }
        ctx.stroke()
        ctx.restore()
      })
    })
  }
}

// Words over bars: a dataset with `barNotes: [text or null, …]` (one per bar) gets the text above
// each bar, e.g. "lossy" over a cell that lost events, so that a short bar is not read as a fast one.
const barNotes = {
  id: 'barNotes',
  afterDatasetsDraw (chart) {
    const { ctx } = chart
    chart.data.datasets.forEach((dataset, index) => {
      const meta = chart.getDatasetMeta(index)
      if (!dataset.barNotes || meta.hidden) return
      meta.data.forEach((bar, i) => {
        const text = dataset.barNotes[i]
        if (!text || bar.y == null || !Number.isFinite(bar.y)) return
        // Above the bar's whisker where it has one, so that the two do not cross.
        const high = dataset.errorBars?.[i]?.[1]
        const whiskerTop = high == null ? bar.y : chart.scales[meta.yAxisID].getPixelForValue(high)
        ctx.save()
        ctx.fillStyle = '#B00020'
        ctx.font = 'bold 11px ' + Chart.defaults.font.family
        ctx.textAlign = 'center'
        ctx.translate(bar.x, Math.min(bar.y, whiskerTop) - 4)
        ctx.rotate(-Math.PI / 2)
        ctx.textAlign = 'left'
        ctx.textBaseline = 'middle'
        ctx.fillText(text, 0, 0)
        ctx.restore()
      })
    })
  }
}

// The text a chart draws (labels, dataset names, titles) holds names from results files: its
// controls, bidi overrides and zero-width characters are drawn as escapes, as on the page.
function visibleText (value) {
  if (typeof value === 'string') return visibleControls(value)
  return Array.isArray(value) ? value.map(visibleText) : value
}

function withVisibleText (config) {
  const plugins = config.options?.plugins
  const titles = Object.fromEntries(['title', 'subtitle'].filter((key) => plugins?.[key]?.text != null).map((key) => [key, { ...plugins[key], text: visibleText(plugins[key].text) }]))
  return {
    ...config,
    data: config.data && {
      ...config.data,
      ...(config.data.labels ? { labels: visibleText(config.data.labels) } : {}),
      datasets: (config.data.datasets ?? []).map((dataset) => (dataset.label == null
        ? dataset
        : { ...dataset, label: visibleText(dataset.label) }))
    },
    options: plugins ? { ...config.options, plugins: { ...plugins, ...titles } } : config.options
  }
}

// spec: { file (relative to the images directory), width, height, config (a Chart.js config) }
export function renderChart ({ file, width = 1000, height = 520, config: given }) {
  refuseUndrawable({ file, config: given })
  warnWithoutFonts()
  const config = withVisibleText(given)
  const canvas = createCanvas(width, height)
  const chart = new Chart(canvas, {
    ...config,
    options: { ...config.options, responsive: false, animation: false, devicePixelRatio: 1 },
    plugins: [...(config.plugins ?? []), whiteBackground, errorBars, barNotes]
  })
  try {
    return canvas.toBuffer('image/png')
  } finally {
    chart.destroy()
  }
}

// A chart's file name relative to the images directory. Every name in it (transport, library,
// mode, sizes) comes from a results file: data, never a path. A segment keeps letters, digits, ".",
// "-" and "@"; a space becomes "_" and a colon "+" (pino:sync → pino+sync, "log4js object" →
// log4js_object), any other character (and "_", "+", "~" themselves) "~<hex code>~", and a leading
// "." "~2e~": readable, stable across runs, and two different names never share a file. Only a name
// longer than 100 characters is cut and gets a short hash of the original.
export function chartFile (...segments) {
  return segments.map(safeSegment).join('/') + '.png'
}

const READABLE = { ' ': '_', ':': '+' }

export function safeSegment (name) {
  const text = String(name)
  let slug = ''
  for (const ch of text) {
    if (/[A-Za-z0-9.@-]/.test(ch)) slug += ch
    else slug += READABLE[ch] ?? `~${ch.codePointAt(0).toString(16)}~`
  }
  if (slug.startsWith('.')) slug = `~2e~${slug.slice(1)}`
  if (slug === '') slug = '~~'
  if (slug.length <= 100) return slug
  return `${slug.slice(0, 80)}-${createHash('sha256').update(text).digest('hex').slice(0, 8)}`
}

// Every chart drawn, as { file, data } under imagesDir, for writeFilesAtomic.
export function renderCharts (specs, imagesDir) {
  return specs.map((spec) => {
    const file = path.resolve(imagesDir, spec.file)
    const inside = path.relative(imagesDir, file)
    if (inside.startsWith('..') || path.isAbsolute(inside)) throw new Error(`chart file ${spec.file} is outside ${imagesDir}: build chart names with chartFile()`)
    return { file, data: renderChart(spec) }
  })
}

// Title and subtitle in the same style everywhere: what is shown, then under which conditions
// (subtitle lines: an array, one line each, so that long conditions never run off the edge).
export function titles (title, subtitleLines = []) {
  return {
    title: { display: true, text: title, font: { size: 17, weight: 'bold' }, padding: { top: 10, bottom: 4 } },
    subtitle: { display: subtitleLines.length > 0, text: subtitleLines, font: { size: 13 }, color: '#555555', padding: { bottom: 10 } },
    legend: { position: 'top', labels: { boxWidth: 18, padding: 14 } }
  }
}

export function axisTitle (text) {
  return { display: true, text, font: { size: 13, weight: 'bold' } }
}

// Every chart of every page has one shape, { file, width, height, config } as renderCharts takes
// it: a title over its notes (one subtitle line each, see titles), its series, its axes (axis and
// its kin below). labels name the bars' groups; a line chart's points carry their own x. file is
// given where the chart names itself (chartFile), else its caller adds it.
function chartSpec (type, { file, width = 1000, height = 520, title, notes, labels, datasets, scales, options }) {
  return {
    ...(file === undefined ? {} : { file }),
    width,
    height,
    config: {
      type,
      data: labels === undefined ? { datasets } : { labels, datasets },
      options: { ...options, plugins: titles(title, notes), scales }
    }
  }
}

export const lineChart = (spec) => chartSpec('line', spec)
export const barChart = (spec) => chartSpec('bar', spec)

// An axis titled in the charts' style; more holds the rest of it (ticks, bounds, position).
export const axis = (text, more = {}) => ({ ...more, title: axisTitle(text) })
export const logAxis = (text, more = {}) => axis(text, { type: 'logarithmic', ...more })
// A bar's or a size's axis: from zero, so that a bar's length is its figure.
export const zeroAxis = (text, more = {}) => axis(text, { beginAtZero: true, ...more })
// Time under a run's samples (timeseries' tMs, every 100 ms), in seconds from its start.
export const timeAxis = () => axis('time since start (s)', { type: 'linear', min: 0 })

// A series drawn as a line in one colour (its library's, from palette): a 2 px line without points
// unless style says otherwise (dashes, thinner reference lines, a fill).
export const lineSeries = (label, colour, data, style = {}) =>
  ({ label, data, borderColor: colour, backgroundColor: colour, borderWidth: 2, pointRadius: 0, ...style })

// A series of bars in one colour; more holds its whiskers (errorBars) and notes (barNotes).
export const barSeries = (label, colour, data, more = {}) => ({ label, backgroundColor: colour, data, ...more })

// A run's RSS over time in MiB (divided by per: its workers, for a figure per worker), from its
// timeseries. An RSS of 0 is a sample of workers already exited (or zombies awaiting reaping), not
// a measurement.
const MIB = 1024 * 1024
export const rssOverTime = (run, per = 1) =>
  run.timeseries.filter((p) => p.rssBytes > 0).map((p) => ({ x: p.tMs / 1000, y: p.rssBytes / per / MIB }))

// Labels for a logarithmic axis from min to max: 1, 2 and 5 times each power of ten where the axis
// spans up to LOG_TICKS_125 decades, only the powers of ten past that (Chart.js labels every
// gridline of a log axis, and 7,000,000 then sits on 10,000,000's label); the other gridlines stay bare.
const LOG_TICKS_125 = 4
export function logTicks (min, max) {
  const decades = min > 0 && max > min ? Math.log10(max / min) : 0
  const leadings = decades > LOG_TICKS_125 ? [1] : [1, 2, 5]
  return (value) => {
    const leading = value / 10 ** Math.floor(Math.log10(value) + 1e-9)
    return leadings.some((d) => Math.abs(leading - d) < 1e-6) ? value.toLocaleString('en-US') : ''
  }
}
