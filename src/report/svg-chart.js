import { escapeHtml } from '../draw/html-text.js'
import { formatNumber } from '../draw/labels.js'
import { refuseUndrawable } from '../draw/chart-values.js'
import { maxOf, minOf } from '../stats.js'

// The report's charts as inline SVG for the HTML page: the same Chart.js configurations that
// charts.js draws to PNG (run-charts.js, http-charts.js, …), so both formats show the same data,
// axes and colours. What those configurations use is drawn: bars over categories (with the
// `errorBars` whiskers), lines over linear or logarithmic axes, a second y axis. The title,
// subtitles and legend are HTML around the SVG (they wrap on a narrow screen; the legend's buttons
// show and hide a library); every bar and point carries its value in a <title>, which the page's
// script shows on hover. Axis, grid and text colours come from the page's CSS (light and dark).

const TICK_FONT = 12
const textWidth = (text, size = TICK_FONT) => String(text).length * size * 0.6
const round = (v) => Math.round(v * 10) / 10

// A figure as the tooltip says it: whole numbers from 100 up, otherwise three significant digits.
export function figure (value) {
  if (value == null || !Number.isFinite(value)) return '—'
  if (Math.abs(value) >= 100) return formatNumber(value, 0)
  return String(Number(value.toPrecision(3)))
}

const textOf = (value) => (Array.isArray(value) ? value.join(' ') : String(value ?? ''))
const titleText = (scale) => (scale?.title?.display === false ? '' : textOf(scale?.title?.text ?? ''))

// A colour from a configuration: #rgb, #rrggbb or #rrggbbaa as { color, opacity }; anything else
// (it is ours, but it lands in an attribute) becomes grey. Near-black is marked `ink`: the page's
// CSS draws it in the text colour, so that `raw` stays visible on a dark background. kind: the
// element's own class (bar, line, …), in the same class attribute.
function paint (value, fallback = '#888888') {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(String(value ?? ''))?.[1]
  if (!hex) return paint(fallback)
  const full = hex.length === 3 ? hex.replace(/./g, (c) => c + c) : hex
  const [r, g, b] = [0, 2, 4].map((k) => parseInt(full.slice(k, k + 2), 16))
  const opacity = full.length === 8 ? parseInt(full.slice(6), 16) / 255 : 1
  return { color: `#${full.slice(0, 6)}`, opacity: Math.round(opacity * 100) / 100, ink: 0.2126 * r + 0.7152 * g + 0.0722 * b < 40 }
}

const fillAttrs = (p, kind = '') => `fill="${p.color}"${p.opacity < 1 ? ` fill-opacity="${p.opacity}"` : ''}${classAttr([kind, p.ink ? 'ink-fill' : ''])}`
const strokeAttrs = (p, kind = '') => `stroke="${p.color}"${p.opacity < 1 ? ` stroke-opacity="${p.opacity}"` : ''}${classAttr([kind, p.ink ? 'ink-stroke' : ''])}`
// A bar's fill and, for a cell drawn pale (it lost events), its outline in the library's full colour.
function barAttrs (fill, outline, width) {
  const stroke = outline ? ` stroke="${outline.color}" stroke-width="${width}"` : ''
  return `fill="${fill.color}"${fill.opacity < 1 ? ` fill-opacity="${fill.opacity}"` : ''}${stroke}` +
    classAttr(['bar', fill.ink ? 'ink-fill' : '', outline?.ink ? 'ink-stroke' : ''])
}

function classAttr (names) {
  const list = names.filter(Boolean)
  return list.length ? ` class="${list.join(' ')}"` : ''
}

// --- scales ---------------------------------------------------------------------------------

function niceStep (range, count) {
  const raw = range / count
  const magnitude = 10 ** Math.floor(Math.log10(raw))
  const n = raw / magnitude
  return (n <= 1 ? 1 : n <= 2 ? 2 : n <= 2.5 ? 2.5 : n <= 5 ? 5 : 10) * magnitude
}

// A numeric scale from its options and the values drawn on it:
// { min, max, log, ticks: [{ value, label }], at(v) → 0..1 }.
function numericScale (options = {}, values, { count = 6 } = {}) {
  const finite = values.filter(Number.isFinite)
  const log = options.type === 'logarithmic'
  if (log) {
    const positive = finite.filter((v) => v > 0)
    const min = options.min ?? 10 ** Math.floor(Math.log10(positive.length ? minOf(positive) : 1))
    let max = options.max ??
      10 ** Math.ceil(Math.log10(positive.length ? maxOf(positive, options.suggestedMax ?? 0) : 10))
    if (max <= min) max = min * 10
    const [lo, hi] = [Math.log10(min), Math.log10(max)]
    const decades = hi - lo
    const candidates = []
    for (let k = Math.floor(lo); k <= Math.ceil(hi); k++) {
      for (let m = 1; m <= 9; m++) {
        const value = m * 10 ** k
        if (value >= min * (1 - 1e-9) && value <= max * (1 + 1e-9)) candidates.push({ value, major: m === 1, m })
      }
    }
    const callback = options.ticks?.callback
    const ticks = candidates.flatMap(({ value, major, m }) => {
      if (typeof callback === 'function') {
        const label = callback(value)
        return label == null || label === '' ? [] : [{ value, label: textOf(label) }]
      }
      return major || (decades <= 2 && (m === 2 || m === 5)) ? [{ value, label: figure(value) }] : []
    })
    return { min, max, log, ticks, at: (v) => (Math.log10(Math.max(v, min * 1e-6)) - lo) / (hi - lo) }
  }
  let lo = minOf(finite, options.beginAtZero ? 0 : Infinity)
  let hi = maxOf([...finite, options.suggestedMax ?? -Infinity, options.beginAtZero ? 0 : -Infinity])
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) [lo, hi] = [0, 1]
  if (options.min != null) lo = options.min
  if (options.max != null) hi = options.max
  if (hi <= lo) hi = lo + (Math.abs(lo) || 1)
  const step = niceStep(hi - lo, count)
  if (options.min == null) lo = Math.floor(lo / step + 1e-9) * step
  if (options.max == null) hi = Math.ceil(hi / step - 1e-9) * step
  // Decimals the step needs: 0.25 two, 2.5 one, 25 none.
  const magnitude = Math.floor(Math.log10(step) + 1e-9)
  const digits = Math.max(0, -magnitude + (Math.abs(step / 10 ** magnitude - 2.5) < 1e-9 ? 1 : 0))
  // Counted, not stepped until past hi: where the step is below the ends' precision (1e20 and
  // 1e20 + 16384), v += step would never move.
  const ticks = []
  const spaces = Math.floor((hi - lo) / step + 1e-6)
  for (let i = 0; i <= spaces; i++) {
    const v = lo + i * step
    ticks.push({ value: v, label: formatNumber(Math.abs(v) < step * 1e-6 ? 0 : v, digits) })
  }
  return { min: lo, max: hi, log, ticks, at: (v) => (v - lo) / (hi - lo) }
}

// --- the chart ------------------------------------------------------------------------------

// spec: { width, height, config } as the sections give it; id: unique on the page (clip path, caption).
// Returns the <figure> with its caption, legend and SVG.
export function chartFigure ({ file, width = 1000, height = 520, config }, { id }) {
  refuseUndrawable({ file, config })
  const options = config.options ?? {}
  const plugins = options.plugins ?? {}
  const datasets = config.data?.datasets ?? []
  const title = textOf(plugins.title?.display === false ? '' : plugins.title?.text ?? '')
  const subtitles = plugins.subtitle?.display === false
    ? []
    : [plugins.subtitle?.text ?? []].flat().map(textOf).filter(Boolean)
  const svgHeight = Math.max(320, height - 110)
  const drawn = config.type === 'bar' ? barChart(config, width, svgHeight) : lineChart(config, width, svgHeight, id)
  const caption = [
    title ? `<span class="chart-title" id="${id}-title">${escapeHtml(title)}</span>` : '',
    ...subtitles.map((line) => `<span class="chart-sub">${escapeHtml(line)}</span>`)
  ].join('')
  const legend = datasets.map((dataset, index) => legendItem(dataset, index, config.type)).join('')
  return `<figure class="chart" id="${id}" data-type="${escapeHtml(config.type)}">` +
    `<figcaption>${caption}</figcaption>` +
    (datasets.length ? `<div class="legend" role="group" aria-label="show or hide a series">${legend}</div>` : '') +
    `<svg class="plot" viewBox="0 0 ${width} ${svgHeight}" role="img"${title ? ` aria-labelledby="${id}-title"` : ''} xmlns="http://www.w3.org/2000/svg">${drawn}</svg>` +
    '</figure>'
}

// A dataset's colour option may be one colour or one per bar (chart.js's scriptable arrays: a
// lossy cell's bar is paler than its library's); the legend takes the series' own colour.
const colourAt = (value, i) => (Array.isArray(value) ? value[i] : value)

function legendItem (dataset, index, type) {
  const single = (value) => (Array.isArray(value) ? undefined : value)
  const colour = paint(type === 'bar'
    ? single(dataset.backgroundColor) ??
      single(dataset.borderColor) ??
      colourAt(dataset.borderColor, 0) ??
      colourAt(dataset.backgroundColor, 0)
    : single(dataset.borderColor) ?? single(dataset.backgroundColor))
  const dash = Array.isArray(dataset.borderDash) && dataset.borderDash.length ? ` stroke-dasharray="${dataset.borderDash.map(Number).join(' ')}"` : ''
  const swatch = type === 'bar'
    ? `<rect x="1" y="1" width="16" height="12" ${fillAttrs({ ...colour, opacity: 1 })}/>`
    : `<line x1="0" y1="7" x2="18" y2="7" stroke-width="3"${dash} ${strokeAttrs({ ...colour, opacity: 1 })}/>`
  return `<button type="button" class="series-toggle" data-series="${index}" aria-pressed="true">` +
    `<svg class="swatch" viewBox="0 0 18 14" width="18" height="14" aria-hidden="true">${swatch}</svg>${escapeHtml(textOf(dataset.label))}</button>`
}

// The plot's frame: margins for tick labels and axis titles.
function frame ({ width, height, xLabelLines, xTitle, left, right }) {
  const leftWidth = left
    ? maxOf(left.scale.ticks.map((t) => textWidth(t.label)), 10) + 10 + (left.title ? 24 : 0)
    : 16
  const rightWidth = right
    ? maxOf(right.scale.ticks.map((t) => textWidth(t.label)), 10) + 10 + (right.title ? 24 : 0)
    : 20
  const top = 12
  const bottom = xLabelLines * (TICK_FONT + 4) + 10 + (xTitle ? 26 : 0)
  return { x0: leftWidth, x1: width - rightWidth, y0: top, y1: height - bottom, width, height }
}

function yAxis (box, axis, side, { grid = true } = {}) {
  if (!axis) return ''
  const out = []
  const x = side === 'left' ? box.x0 : box.x1
  for (const tick of axis.scale.ticks) {
    const y = round(box.y1 - axis.scale.at(tick.value) * (box.y1 - box.y0))
    if (grid) out.push(`<line class="grid" x1="${box.x0}" y1="${y}" x2="${box.x1}" y2="${y}"/>`)
    out.push(`<text class="tick" x="${side === 'left' ? x - 6 : x + 6}" y="${y}" dy="0.32em" text-anchor="${side === 'left' ? 'end' : 'start'}">${escapeHtml(tick.label)}</text>`)
  }
  out.push(`<line class="axis" x1="${x}" y1="${box.y0}" x2="${x}" y2="${box.y1}"/>`)
  if (axis.title) {
    const cx = side === 'left' ? 14 : box.width - 14
    const cy = round((box.y0 + box.y1) / 2)
    out.push(`<text class="axis-title" x="${cx}" y="${cy}" text-anchor="middle" transform="rotate(${side === 'left' ? -90 : 90} ${cx} ${cy})">${escapeHtml(axis.title)}</text>`)
  }
  return out.join('')
}

function xTitleText (box, text) {
  return text ? `<text class="axis-title" x="${round((box.x0 + box.x1) / 2)}" y="${box.height - 8}" text-anchor="middle">${escapeHtml(text)}</text>` : ''
}

const tip = (lines) => `<title>${escapeHtml(lines.filter(Boolean).join('\n'))}</title>`

// Grouped bars, as Chart.js lays them out: each category takes 80% of its band, each dataset's bar
// 90% of its share; a null is no bar. Whiskers from errorBars [low, high].
function barChart (config, width, height) {
  const options = config.options ?? {}
  const labels = config.data?.labels ?? []
  const datasets = config.data?.datasets ?? []
  const yOptions = options.scales?.y ?? {}
  const values = datasets.flatMap((d) =>
    [...(d.data ?? []), ...(d.errorBars ?? []).flat()].map((v) => (v == null ? NaN : Number(v))))
  const axis = { scale: numericScale(yOptions, values), title: titleText(yOptions) }
  const xTitle = titleText(options.scales?.x)
  const xLabelLines = maxOf(labels.map((l) => (Array.isArray(l) ? l.length : 1)), 1)
  const box = frame({ width, height, xLabelLines, xTitle, left: axis })
  const y = (v) => round(box.y1 - Math.min(1, Math.max(0, axis.scale.at(v))) * (box.y1 - box.y0))
  const base = y(axis.scale.log ? axis.scale.min : Math.max(axis.scale.min, Math.min(0, axis.scale.max)))
  const band = (box.x1 - box.x0) / Math.max(1, labels.length)
  const slot = (band * 0.8) / Math.max(1, datasets.length)
  const out = [`<g class="axes">${yAxis(box, axis, 'left')}`]
  labels.forEach((label, i) => {
    const cx = round(box.x0 + band * (i + 0.5))
    const lines = Array.isArray(label) ? label : [label]
    const tspans = lines.map((line, k) => `<tspan x="${cx}" dy="${k === 0 ? 0 : TICK_FONT + 4}">${escapeHtml(line)}</tspan>`).join('')
    out.push(`<text class="tick" x="${cx}" y="${box.y1 + TICK_FONT + 6}" text-anchor="middle">${tspans}</text>`)
    if (i > 0) out.push(`<line class="grid" x1="${round(box.x0 + band * i)}" y1="${box.y0}" x2="${round(box.x0 + band * i)}" y2="${box.y1}"/>`)
  })
  out.push(`<line class="axis" x1="${box.x0}" y1="${base}" x2="${box.x1}" y2="${base}"/>`, xTitleText(box, xTitle), '</g>')
  datasets.forEach((dataset, index) => {
    const bars = []
    ;(dataset.data ?? []).forEach((raw, i) => {
      if (raw == null || !Number.isFinite(Number(raw))) return
      const value = Number(raw)
      const colour = paint(colourAt(dataset.backgroundColor, i) ?? colourAt(dataset.borderColor, i))
      const outlineWidth = dataset.borderColor == null ? 0 : Number(colourAt(dataset.borderWidth, i) ?? 0)
      const outline = outlineWidth > 0 ? paint(colourAt(dataset.borderColor, i)) : null
      const note = colourAt(dataset.barNotes, i)
      const x = round(box.x0 + band * i + band * 0.1 + slot * index + slot * 0.05)
      const barWidth = round(slot * 0.9)
      const top = Math.min(y(value), base)
      const range = dataset.errorBars?.[i]
      const interval = range && range[0] != null && range[1] != null ? `interval: ${figure(range[0])} – ${figure(range[1])}` : ''
      bars.push(`<rect x="${x}" y="${top}" width="${barWidth}" height="${round(Math.max(Math.abs(base - y(value)), 0.5))}" ${barAttrs(colour, outline, outlineWidth)}>` +
        tip([textOf(dataset.label), textOf(labels[i]), `${axis.title || 'value'}: ${figure(value)}`, interval, note ? textOf(note) : '']) + '</rect>')
      // Above the bar's whisker where it has one, so that the two do not cross.
      const noteY = round(Math.min(top, range?.[1] != null ? y(range[1]) : top) - 4)
      if (note) bars.push(`<text class="bar-note" x="${round(x + barWidth / 2)}" y="${noteY}" text-anchor="middle">${escapeHtml(textOf(note))}</text>`)
      if (interval) {
        const cx = round(x + barWidth / 2)
        const cap = round(Math.max(2, Math.min(6, barWidth / 4)))
        const [low, high] = [y(range[0]), y(range[1])]
        bars.push(`<path class="whisker" d="M${cx} ${high}V${low}M${round(cx - cap)} ${high}H${round(cx + cap)}M${round(cx - cap)} ${low}H${round(cx + cap)}"/>`)
      }
    })
    out.push(`<g class="series" data-series="${index}">${bars.join('')}</g>`)
  })
  return out.join('')
}

// Hit targets for hover along a line: every point up to this many, then every k-th.
const MAX_TARGETS = 60

// Lines of { x, y } points over a linear or logarithmic x axis, each on its y axis (yAxisID; one on
// the right where its scale says position: 'right'); `fill` shades down to the axis.
function lineChart (config, width, height, id) {
  const options = config.options ?? {}
  const scales = options.scales ?? {}
  const datasets = config.data?.datasets ?? []
  // A point without a value is a gap: the line stops before it and starts again after it (spanGaps false).
  const pointsOf = (dataset) => {
    let gap = false
    const points = []
    ;(dataset.data ?? []).forEach((p, i) => {
      const point = p != null && typeof p === 'object' ? { x: Number(p.x), y: p.y == null ? NaN : Number(p.y) } : { x: i, y: p == null ? NaN : Number(p) }
      if (!Number.isFinite(point.x) || !Number.isFinite(point.y)) {
        gap = true
        return
      }
      points.push({ ...point, gap: gap && points.length > 0 && dataset.spanGaps !== true })
      gap = false
    })
    return points
  }
  const axisIds = [...new Set(datasets.map((d) => d.yAxisID ?? 'y'))]
  const axes = new Map(axisIds.map((key) => {
    const yOptions = scales[key] ?? {}
    const values = datasets.filter((d) => (d.yAxisID ?? 'y') === key).flatMap((d) => pointsOf(d).map((p) => p.y))
    return [key, { scale: numericScale(yOptions, values), title: titleText(yOptions), side: yOptions.position === 'right' ? 'right' : 'left', grid: yOptions.grid?.drawOnChartArea !== false }]
  }))
  const xOptions = scales.x ?? {}
  const xScale = numericScale(xOptions, datasets.flatMap((d) => pointsOf(d).map((p) => p.x)), { count: 8 })
  const xTitle = titleText(xOptions)
  const left = [...axes.values()].find((a) => a.side === 'left')
  const right = [...axes.values()].find((a) => a.side === 'right')
  const box = frame({ width, height, xLabelLines: 1, xTitle, left, right })
  const px = (v) => round(box.x0 + xScale.at(v) * (box.x1 - box.x0))
  const out = ['<g class="axes">']
  for (const tick of xScale.ticks) {
    const x = px(tick.value)
    out.push(`<line class="grid" x1="${x}" y1="${box.y0}" x2="${x}" y2="${box.y1}"/>`, `<text class="tick" x="${x}" y="${box.y1 + TICK_FONT + 6}" text-anchor="middle">${escapeHtml(tick.label)}</text>`)
  }
  for (const axis of axes.values()) out.push(yAxis(box, axis, axis.side, { grid: axis.grid }))
  out.push(`<line class="axis" x1="${box.x0}" y1="${box.y1}" x2="${box.x1}" y2="${box.y1}"/>`, xTitleText(box, xTitle), '</g>')
  out.push(`<clipPath id="${id}-clip"><rect x="${box.x0}" y="${box.y0 - 4}" width="${box.x1 - box.x0}" height="${box.y1 - box.y0 + 8}"/></clipPath>`)
  const xText = (x) => {
    const label = typeof xOptions.ticks?.callback === 'function' ? xOptions.ticks.callback(x) : null
    return label == null ? figure(x) : textOf(label)
  }
  datasets.forEach((dataset, index) => {
    const axis = axes.get(dataset.yAxisID ?? 'y')
    const py = (v) => round(box.y1 - Math.min(1.02, Math.max(-0.02, axis.scale.at(v))) * (box.y1 - box.y0))
    const points = pointsOf(dataset).filter((p) => !xScale.log || p.x > 0)
    const colour = paint(dataset.borderColor ?? dataset.backgroundColor)
    const parts = []
    if (points.length) {
      const d = points.map((p, i) => `${i && !p.gap ? 'L' : 'M'}${px(p.x)} ${py(p.y)}`).join('')
      if (dataset.fill) {
        const baseY = py(axis.scale.log ? axis.scale.min : Math.max(axis.scale.min, 0))
        parts.push(`<path d="${d}L${px(points.at(-1).x)} ${baseY}L${px(points[0].x)} ${baseY}Z" ${fillAttrs(paint(dataset.backgroundColor ?? dataset.borderColor), 'area')}/>`)
      }
      const dash = Array.isArray(dataset.borderDash) && dataset.borderDash.length ? ` stroke-dasharray="${dataset.borderDash.map(Number).join(' ')}"` : ''
      parts.push(`<path d="${d}" fill="none" stroke-width="${Number(dataset.borderWidth ?? 2)}"${dash} ${strokeAttrs(colour, 'line')}/>`)
      const radius = Number(dataset.pointRadius ?? 3)
      const every = Math.max(1, Math.ceil(points.length / MAX_TARGETS))
      points.forEach((p, i) => {
        if (i % every !== 0 && i !== points.length - 1) return
        const text = tip([textOf(dataset.label), `${xTitle || 'x'}: ${xText(p.x)}`, `${axis.title || 'y'}: ${figure(p.y)}`])
        parts.push(radius > 0
          ? `<circle cx="${px(p.x)}" cy="${py(p.y)}" r="${radius}" ${fillAttrs(colour, 'point')}>${text}</circle>`
          : `<circle class="point target" cx="${px(p.x)}" cy="${py(p.y)}" r="5">${text}</circle>`)
      })
    }
    out.push(`<g class="series" data-series="${index}" clip-path="url(#${id}-clip)">${parts.join('')}</g>`)
  })
  return out.join('')
}
