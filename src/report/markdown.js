import { UsageError } from '../errors.js'
import { SECTIONS } from './sections.js'
import { formatBytes, formatNumber, unique } from '../draw/labels.js'
import { code, codeSpan, escapeCell, markdownBlocks, markdownEscape, textColumns } from '../draw/table.js'
import { dimensionValue, ofType } from '../results/model.js'
import { codeChanges, repositoryUrl, startEnvs } from '../results/env.js'
import { shippedScenarios } from '../shipped-scenarios.js'
import { summarySection } from './summary.js'
import { anomalyBlocks, escapeMarkdown, findAnomalies } from '../results/judge/anomalies.js'
import { scorecardBlocks } from './scorecard.js'
import { limitsBlock, pageLimits } from './limits.js'
import { maxOf } from '../stats.js'
import { conditionsText } from './conditions.js'
import { coresOf, EVERY_CORE, fewestCoresFirst } from '../engine/cores.js'
import { comparesInOneLoop, showsBursts } from './run/bursts-section.js'

// The results page: what was measured where, then each section's tables and chart links.
// Everything on it comes from the results; nothing depends on when the report is generated, so
// regenerating from the same results gives the same page.
// A page of several (log-bench report --pages) has its own title, links to the others (nav: markdown)
// and may have reference data (Then and now).
// details: { imageLink (from a detail page), link(slug) → the detail page's link from this page, back }:
// the sections that can (the run section's groups) put their details on pages of their own, linked
// from a Details list, so the main page stays short. links: { json: [links], csv: link } to the
// page's data, for its Reproduce block.
export function renderPage (dataset, { imageLink, details = null, ...options }) {
  const image = (file, alt) => `![${escapeCell(markdownEscape(alt.replace(/[[\]]/g, '')))}](${imageLink(file)})`
  const detailImage = details ? (file, alt) => `![${escapeCell(markdownEscape(alt.replace(/[[\]]/g, '')))}](${details.imageLink(file)})` : null
  const { blocks, charts, detailPages } = pageBlocks(dataset, { image, detailImage, details, ...options })
  const title = options.title ?? 'log-bench results'
  const detailMarkdown = detailPages.map((d) => ({
    slug: d.slug,
    markdown: [`# ${title}: ${escapeMarkdown(d.title)}`, `Part of [${title.replace(/[[\]]/g, '')}](${details.back}#details).`, markdownBlocks(d.blocks.filter((b, i) => !(i === 0 && b.heading)))].join('\n\n') + '\n'
  }))
  return { markdown: markdownBlocks(blocks) + '\n', charts, details: detailMarkdown }
}

// The page as blocks (see table.js), for markdown (above) and HTML (html.js) alike. image(file, alt)
// is the block that shows a chart where a section places it; detailImage the same from a detail page.
// scorecard: the pages of report --pages (results index only), see scorecard.js. burstSize: the link
// to where the burst size is measured (report --pages, see pages.js), or null; pacedOverload the
// same for the overload verdicts of paced logging under a stall.
export function pageBlocks (dataset, { image, detailImage = null, sections = SECTIONS, title = 'log-bench results', nav = null, reference = null, name = 'results', details = null, links = null, scorecard = null, burstSize = null, pacedOverload = null }) {
  const env = dataset.env
  const ctx = {
    image,
    conditions: `${env.cpuModel}, ${env.cpuCount} cores, Node ${env.node}`,
    reference,
    summaryChart: `summary-${name}`,
    pacedOverload
  }
  if (details) ctx.details = { ctx: { ...ctx, image: detailImage } }
  const detailPages = []
  const runs = dataset.runs
  const out = [{ heading: title, level: 1 }]
  if (nav) out.push(nav)
  // What limits what the page can say comes first, with what follows from it (limits.js).
  out.push(...limitsBlock(pageLimits(dataset)))
  const charts = []
  // The page opens with its summary: the findings that survive their statistics, then the rest.
  const summary = summarySection(dataset, ctx)
  // A section may lead the page in the Summary's place (lead(dataset, ctx, summary) → { blocks,
  // charts, after } or null: durability by what was kept, latency by the knees): the first of the
  // page's sections that has a lead. `after` follows the sections placed at the top.
  const led = sections.reduce((found, section) => found ?? section.lead?.(dataset, ctx, summary) ?? null, null)
  out.push(...(led ?? summary).blocks)
  charts.push(...(led ?? summary).charts)
  // Beside the headline: the machine, its load while the runs went on, the receivers and packages.
  out.push(conditionsText(dataset))
  out.push(intro(dataset, burstSize))
  if (scorecard) out.push(...scorecardBlocks(scorecard))
  const shown = shownSections(dataset, sections)
  const render = (placed) => {
    for (const section of shown) {
      if ((section.placement === 'top') !== placed) continue
      const part = renderSection(section, dataset, ctx)
      out.push(...part.blocks)
      charts.push(...part.charts)
      // Two sections may add to one group's detail page (the run section's tables, then the costs):
      // one page per slug, its sections' blocks in the order the sections render.
      for (const page of part.details ?? []) {
        const same = detailPages.find((d) => d.slug === page.slug)
        if (same) same.blocks.push(...page.blocks)
        else detailPages.push({ ...page, blocks: [...page.blocks] })
      }
    }
  }
  render(true)
  out.push(...(led?.after ?? []))
  out.push(...anomalyBlocks(findAnomalies(dataset)))
  if (links) out.push('## Reproduce', reproduce(dataset, links))
  out.push('## Hardware and Software', hardwareTable(dataset))
  const reading = sections.filter((s) => shown.includes(s)).flatMap((s) => s.howToRead ?? [])
  if (reading.length) out.push('## How to read the numbers', reading.join('\n'))
  render(false)
  if (detailPages.length && details) {
    out.push('## Details', `Each comparison's charts, per-library runs (every run's figures, CPU and memory over time), details table and, where the runs recorded it, what each call costs are on a page of its own:\n\n${detailPages.map((d) => `- [${escapeMarkdown(d.title)}](${details.link(d.slug)})`).join('\n')}`)
  }
  const known = new Set(sections.flatMap((s) => s.types))
  const skipped = unique(runs.map((r) => dimensionValue(r, 'type')).filter((t) => !known.has(t)))
  if (skipped.length) {
    out.push(`_Not shown: ${skipped.map((t) => `${runs.filter((r) => dimensionValue(r, 'type') === t).length} run(s) of type "${markdownEscape(t)}"`).join(', ')} (this log-bench has no report section for ${skipped.length > 1 ? 'those types' : 'that type'})._`)
  }
  out.push(`<sub>Generated by \`log-bench report\` from ${dataset.files.map(codeSpan).join(', ')}.</sub>`)
  return { blocks: out, charts, detailPages }
}

// The sections with runs of their types in this dataset, in page order: first those placed at the
// top (before the Hardware and Software table), then the others.
export function shownSections (dataset, sections = SECTIONS) {
  const shown = sections.filter((section) => dataset.runs.some((r) => section.types.includes(dimensionValue(r, 'type'))))
  return [...shown.filter((s) => s.placement === 'top'), ...shown.filter((s) => s.placement !== 'top')]
}

// A section that finds its runs malformed throws a UsageError; the reader needs to know which file.
export function renderSection (section, dataset, ctx) {
  try {
    return section.render(dataset, ctx)
  } catch (err) {
    if (err instanceof UsageError && dataset.files?.length) throw new UsageError(`${dataset.files.join(', ')}: ${err.message}`)
    throw err
  }
}

// burstSize: see pageBlocks. A page that measures bursts itself says so in its own section.
function intro (dataset, burstSize) {
  const env = dataset.env
  const runs = ofType(dataset.runs, 'run')
  const events = unique(runs.map((r) => r.events)).map((n) => n.toLocaleString('en-US'))
  const maxWorkers = maxOf(dataset.runs.map((r) => r.cpus ?? 0), 0)
  const what = events.length ? `Results of **${events.join(' / ')} events per worker**, measured` : 'Measured'
  let text = `${what} on **${markdownEscape(env.cpuModel)} (${env.cpuCount} cores, ${formatBytes(env.memoryBytes)} memory)** with Node ${markdownEscape(env.node)}, on ${markdownEscape(dateRange(env))}.`
  if (maxWorkers > env.cpuCount) text += ` Worker counts above ${env.cpuCount} share the machine's ${env.cpuCount} cores, so they measure contention as much as parallelism.`
  if (burstSize && comparesInOneLoop(dataset) && !showsBursts(dataset)) text += ` Each worker logged every event in one loop; logging a few at a time, as a service does, can change how the libraries compare: see [the burst size](${burstSize}).`
  return text
}

function dateRange (env) {
  const first = env.firstTime.slice(0, 10)
  const last = (env.lastTime ?? env.firstTime).slice(0, 10)
  return first === last ? first : `${first} to ${last}`
}

function hardwareTable (dataset) {
  const env = dataset.env
  const rows = [
    ['Processors', `${env.cpuModel} (${env.cpuCount} cores)`],
    ['Memory', formatBytes(env.memoryBytes)],
    ['Operating System', env.os],
    ['Node.js', `${env.node}${env.v8 ? ` (V8 ${env.v8})` : ''}`],
    ['log-bench', `${env.logBenchVersion ?? 'unknown'}${env.gitCommit ? ` (commit ${env.gitCommit.slice(0, 7)})` : ''}`]
  ]
  const baselines = []
  for (const [lib, version] of Object.entries(env.libVersions ?? {})) {
    if (version === env.node) baselines.push(lib)
    else rows.push([lib, version ?? 'unknown'])
  }
  if (baselines.length) rows.push(['Baselines', `${baselines.join(', ')} (part of log-bench)`])
  // Merged shards (log-bench merge): each ran its cells on its own machine; say which.
  for (const shard of env.shards ?? []) rows.push([`Shard ${shard.shard}`, `${shard.cpuModel} (${shard.cpuCount} cores), ${formatBytes(shard.memoryBytes)}, ${shard.os}, Node ${shard.node}`])
  for (const command of env.commands) rows.push(['Command', code(command)])
  rows.push(...coresRows(dataset.runs ?? [], env))
  rows.push(...loadRows(dataset.envs ?? [{ env }]))
  rows.push(['Date', timeRange(env)])
  return { columns: textColumns(['Name', 'Spec']), rows }
}

// What the runs were limited to with run --cores (the article's CPUs offline), and the CPUs the runs
// without it had where log-bench was started on fewer than the machine's (a taskset, a container's
// CPU set: allowedCpus): no row where every run had every core.
function coresRows (runs, env) {
  const ofRun = runs.filter((r) => dimensionValue(r, 'type') === 'run')
  const limits = unique(ofRun.map(coresOf)).sort(fewestCoresFirst)
  const cpusOf = (n) => unique(ofRun.filter((r) => coresOf(r) === n && r.coresCpus).map((r) => r.coresCpus))
  const every = env.cpuCount === 1 ? '0' : `0-${env.cpuCount - 1}`
  const started = unique(ofRun.filter((r) => coresOf(r) === EVERY_CORE && r.allowedCpus != null)
    .map((r) => r.allowedCpus))
  const narrowed = started.some((cpus) => cpus !== every)
  const limited = limits.some((n) => n !== EVERY_CORE)
  if (!limited && !narrowed) return []
  const said = limits.map((n) => (n === EVERY_CORE
    ? narrowed
      ? `CPU ${started.join(', ')} of ${env.cpuCount} for the runs without --cores, as log-bench was started (a taskset or a container's CPU set)`
      : `every core (${env.cpuCount}) for the runs without --cores`
    : `${n} (CPU ${cpusOf(n).join(', ') || 'not recorded'}) for the runs at --cores ${n}`))
  return [['Cores', `${said.join('; ')}; the whole run (workers and receiving end) on those CPUs${limited ? ', limited with taskset' : ''}`]]
}

// How busy the machine was when each command began (results from before log-bench recorded it: no row).
// A merged file's shards each say their own (they began on their own machines, at their own times).
function loadRows (envs) {
  const recorded = startEnvs(envs).filter(({ env: e }) => Array.isArray(e?.loadAverage) && e.loadAverage.every((v) => typeof v === 'number'))
  return recorded.map(({ shard, env: e }) => [
    recorded.length > 1 ? `Load at start${shard != null ? `, shard ${shard}` : ''} (${e.time.slice(0, 16).replace('T', ' ')} UTC)` : 'Load at start',
    `load average ${e.loadAverage.map((v) => formatNumber(v, 2)).join(', ')} (1, 5, 15 min) on ${e.cpuCount} cores${e.availableMemoryBytes == null ? '' : `; ${formatBytes(e.availableMemoryBytes)} memory available`}`
  ])
}

function timeRange (env) {
  const at = (iso) => `${iso.slice(0, 10)} ${iso.slice(11, 16)}`
  const first = at(env.firstTime)
  const last = env.lastTime ? at(env.lastTime) : first
  if (first === last) return `${first} UTC`
  return first.slice(0, 10) === last.slice(0, 10) ? `${first} to ${last.slice(11)} UTC` : `${first} to ${last} UTC`
}

// How to measure this page again: the pinned log-bench the runs were made with, its scenario, and
// the commit; then where its data is (the results JSON and a CSV of every run).
function reproduce (dataset, links) {
  const env = dataset.env
  const version = env.logBenchVersion ? `@${env.logBenchVersion}` : ''
  const out = /^[\w./-]+$/.test(links.json[0]?.path ?? '') ? links.json[0].path : 'results.json'
  const shipped = new Set(shippedScenarios().map((s) => s.name))
  const commands = unique((env.commands ?? []).map((command) => {
    const given = reproducibleScenario(command.match(/--scenario[ =](\S+)/)?.[1], shipped)
    return given && `npx log-bench${version} run --scenario ${given} --out ${out}`
  }).filter(Boolean))
  const lines = []
  if (commands.length) {
    lines.push(`Measured with log-bench ${env.logBenchVersion ?? '(version not recorded)'}${env.gitCommit ? ` at commit ${env.gitCommit.slice(0, 7)}` : ''}; to measure again on your machine:`)
    lines.push(['```sh', ...commands, `npx log-bench${version} report ${out} --out page.md`, '```'].join('\n'))
    const ownFiles = unique((env.commands ?? []).map((command) => reproducibleScenario(command.match(/--scenario[ =](\S+)/)?.[1], shipped)).filter((given) => given && !shipped.has(given)))
    if (ownFiles.length) lines.push(`${ownFiles.map((f) => codeSpan(f)).join(', ')} ${ownFiles.length === 1 ? 'is a scenario file' : 'are scenario files'} of the measurer's own, not shipped with log-bench: the path as it was given, from the directory the runs began in.`)
    // The published version may differ from the commit the runs came from: the commit itself, built.
    const commit = /^[0-9a-f]{7,40}$/.test(env.gitCommit ?? '') ? env.gitCommit : null
    const repository = repositoryUrl()
    const changed = codeChanges(env.gitChanges ?? [])
    if (commit && repository && /^https:\/\/[\w./-]+$/.test(repository)) {
      lines.push(changed.length
        ? `The runs began from commit ${commit.slice(0, 7)} with ${changed.length === 1 ? 'a file' : `${changed.length} files`} changed (${changed.map((f) => codeSpan(f)).join(', ')}), so checking it out alone does not give what ran; the options every cell ran with are in the results file (\`env.options\`). The commit they began from:`
        : `Or from the exact code of commit ${commit.slice(0, 7)}:`)
      lines.push(['```sh', `git clone ${repository} log-bench && cd log-bench && git checkout ${commit}`, 'npm install', ...commands.map((c) => c.replace(`npx log-bench${version} `, 'npx log-bench ')), '```'].join('\n'))
    }
  } else {
    lines.push(`Measured with log-bench ${env.logBenchVersion ?? '(version not recorded)'}; the command was not a scenario: see Hardware and Software.`)
  }
  lines.push(`Data: ${links.json.map((j) => `[${j.path}](${j.link})`).join(', ')} (every run, as measured)${links.csv ? ` and [${links.csv.path}](${links.csv.link}) (one row per run)` : ''}.`)
  return lines.join('\n\n')
}

// What `--scenario` takes to run the scenario again: a shipped scenario's name (given by name, or
// by its path in a clone, scenarios/NAME.json), else the path of the user's own file as it was
// given (a name would exit 2, "scenario not found"). null where the text is no plain path: it comes
// from a results file and goes into a code block.
export function reproducibleScenario (given, shipped) {
  if (!given || !/^[\w./-]+$/.test(given)) return null
  const name = given.replace(/\.json$/, '')
  if (shipped.has(name)) return name
  const inClone = given.match(/^(?:\.\/)?scenarios\/([\w.-]+)\.json$/)?.[1]
  if (inClone && shipped.has(inClone)) return inClone
  return given.includes('/') ? given : `./${given}`
}
