import { readJsonFile } from '../../results/json-file.js'
import { UsageError } from '../../errors.js'
import { codeSpan, escapeCell, markdownEscape as md, textColumns } from '../../draw/table.js'
import { formatMs, formatPct, transportTitle, unique } from '../../draw/labels.js'
import { cellKey, dimensionValue, measureNamed, ofType } from '../../results/model.js'
import { roundsOf } from '../../results/rounds.js'
import { judge } from '../../results/judge/verdict.js'
import { rank } from '../../results/judge/rank.js'
import { articleSeparates, findingOfPairs, pairFinding } from './findings-hold.js'
import { coresOf, EVERY_CORE } from '../../engine/cores.js'

// "Then and now": the seed article's published averages (a reference data file, see
// results/reference/) beside ours, per library, transport and number of CPUs, and for each
// transport and number of CPUs whether its orderings still hold. Generated from both data sets.
//
// Like for like: the article's harness had no workers. It ran one process per library and
// transport, logging its 1,000,000 events in one loop; its "1 CPU" took CPUs 1 to 7 offline (the
// terminal and rsyslog on that CPU too), its "8 CPUs" had every CPU online. So a reference cell's
// `cpus` is the article's CPUs, set beside one worker: on 1 core (run --cores 1, the receiving end
// on it too) for 1 CPU, on every core for 8. Our cells of more workers are another experiment (the
// card's) and are left out here.
export const articleCpus = (cpus) => `${cpus} CPU${cpus === 1 ? '' : 's'}`
// The cell of ours that reproduces an article cell of that many CPUs: { cpus (workers), cores }.
export const reproducing = (cpus) => ({ cpus: 1, cores: cpus === 1 ? 1 : EVERY_CORE })
// A reference cell's library as our cells name it: "bunyan:sys" where it names a variant.
const labelOf = (c) => (c.variant ? `${c.lib}:${c.variant}` : c.lib)
const hereLabel = (cpus, env) => (cpus === 1 ? '1 worker on 1 core' : `1 worker on every core (${env.cpuCount} here)`)

// "bunyan < winston < log4js": the names escaped, the marks of the ordering kept as they read.
const ordering = (names) => ({ markdown: names.map((n) => escapeCell(md(n))).join(' < '), plain: names.join(' < ') })

export function readReference (file) {
  const doc = readJsonFile(file, { what: 'a reference data file (results/reference/*.json)' })
  if (!doc?.source?.title || !doc.hardware || !Array.isArray(doc.cells)) throw new UsageError(`${file}: not a reference data file (expected source.title, hardware and cells)`)
  for (const [i, c] of doc.cells.entries()) {
    if (typeof c.transport !== 'string' || typeof c.lib !== 'string' || !Number.isInteger(c.cpus)) throw new UsageError(`${file}: cells[${i}] needs transport, lib and cpus`)
    if (c.variant !== undefined && (typeof c.variant !== 'string' || !c.variant)) throw new UsageError(`${file}: cells[${i}].variant must be a variant's name (as in bunyan:sys), got ${JSON.stringify(c.variant)}`)
  }
  return { ...doc, file }
}

const MEASURES = [['unblockedMs', 'unblocked'], ['doneMs', 'done']]
// The article's unblocked was when its last call returned: ours under that name is loopReturnedMs.
// A record from before loopReturnedMs measured unblocked that way, so its unblockedMs stands in.
const articleUnblocked = (r) => {
  const returned = r.loopReturnedMs
  return returned == null || (typeof returned === 'object' && returned.median == null) ? r.unblockedMs : returned
}
const nowMeasure = (measure) => (measure === 'unblockedMs'
  ? { ...measureNamed('run', 'unblockedMs'), field: 'loopReturnedMs', value: articleUnblocked }
  : measureNamed('run', measure))
const nowMedian = (s, measure) => (s == null ? null : (measure === 'unblockedMs' ? articleUnblocked(s) : s[measure])?.median ?? null)

export const thenAndNowSection = {
  name: 'then-and-now',
  types: ['run'],
  render (dataset, ctx) {
    const reference = ctx.reference
    if (!reference) return { blocks: [], charts: [] }
    const summary = ofType(dataset.summary, 'run')
    // Ours at the article's event count where measured; otherwise at the one count this page has
    // for that transport and worker count (a scenario sized to fit a session), said below.
    const isOurs = (s, c) => {
      const { cpus, cores } = reproducing(c.cpus)
      return s.transport === c.transport && s.cpus === cpus && coresOf(s) === cores
    }
    // A reference cell names the variant that ran the article's experiment where it is not the
    // default (bunyan's "UDP" was bunyan:sys, syslog(3)): its row and findings are that variant's.
    const variantOf = (c) => c.variant ?? 'default'
    const atCount = (c, events, variant = variantOf(c)) => summary.find((s) => isOurs(s, c) && s.lib === c.lib && dimensionValue(s, 'variant') === variant && s.events === events)
    const countOf = (c) => {
      if (atCount(c, reference.events)) return reference.events
      const counts = unique(summary.filter((s) => isOurs(s, c)).map((s) => s.events))
      return counts.length === 1 ? counts[0] : reference.events
    }
    const ours = (c) => atCount(c, countOf(c))
    // A cell's finished runs' figures of one measure, for compare's verdict between two libraries.
    const runsOf = new Map()
    for (const r of ofType(dataset.runs ?? [], 'run')) if (r.ok) runsOf.set(cellKey(r), [...(runsOf.get(cellKey(r)) ?? []), r])
    const runsOfCell = (c) => runsOf.get(cellKey(ours(c))) ?? []
    const roundOf = roundsOf(dataset)
    const otherCounts = unique(reference.cells.map(countOf).filter((n) => n !== reference.events)).sort((a, b) => b - a)
    const hw = reference.hardware
    const env = dataset.env
    const out = [{ heading: 'Then and now' }]
    const counts = otherCounts.length
      ? `The article logged ${reference.events.toLocaleString('en-US')} events in each run; these results log ${unique(reference.cells.map(countOf)).sort((a, b) => b - a).map((n) => n.toLocaleString('en-US')).join(' or ')} (the **Events** column), so their times are of fewer events and only the orders compare. `
      : `${reference.events.toLocaleString('en-US')} events in each run on both sides. `
    out.push(`The ${md(reference.source.year)} article "${md(reference.source.title)}" (${md(reference.source.publisher)}; its code: ${md(reference.source.code)}) beside these results, per library, transport and number of CPUs. ` +
      (reference.source.setup ? `${md(reference.source.setup)} ` : '') +
      'Here its **1 CPU** is set beside **1 worker on 1 core** (`run --cores 1`: log-bench, the worker and the receiving end limited to one CPU) and its **8 CPUs** beside **1 worker on every core**. ' + counts +
      `What still differs: Node ${md(hw.node)} then against ${md(env.node)} now, the machine (${md(hw.cpu)}, ${md(hw.cores)} cores / ${md(hw.threads)} threads, then; ${md(env.cpuModel)}, ${md(env.cpuCount)} cores, now), and the harness (one process then; a parent that starts, times and counts, plus one worker that logs, now). ` +
      'So absolute times do not compare; only the order of the libraries within a transport is set side by side below. This page\'s cells of 8 workers are not the article\'s experiment and are left out here.' +
      (summary.some((s) => coresOf(s) === 1) ? '' : ' This page has no runs on 1 core (`run --cores 1`): the article\'s 1 CPU reads not measured.'))
    out.push('The article\'s figures are its published averages, kept in ' + codeSpan(reference.file) + '. ' + md(reference.source.what ?? '') + (reference.source.harness ? ` ${md(reference.source.harness)}` : ''))
    // What the article's harness did, read from its code: what a reader must know before setting its
    // figures beside ours.
    if (Array.isArray(reference.conditions) && reference.conditions.length) {
      out.push('How the 2019 harness ran, from its code:\n\n' + reference.conditions.map((c) => `- ${md(c)}`).join('\n'))
    }
    const nowFigures = (s) => {
      if (!s) return ['not measured', '', '']
      if (s.okRuns === 0) return [s.status === 'unsupported' ? 'unsupported' : `${s.status}: ${s.errors[0] ?? ''}`, '', '']
      return [formatMs(nowMedian(s, 'unblockedMs')), formatMs(nowMedian(s, 'doneMs')), s.dropRate ? formatPct(s.dropRate.mean) : 'unknown']
    }
    const rows = reference.cells.flatMap((c) => {
      const then = c.failed ? [c.failed, '', ''] : [formatMs(c.unblockedMs), formatMs(c.doneMs), c.dropRate === undefined ? '' : formatPct(c.dropRate)]
      const events = otherCounts.length ? [countOf(c).toLocaleString('en-US')] : []
      const where = [articleCpus(c.cpus), hereLabel(c.cpus, env)]
      const row = [transportTitle(c.transport), labelOf(c), ...where, ...then, ...events, ...nowFigures(ours(c))]
      if (!c.variant) return [row]
      // Beside the variant that ran the article's experiment, the library's default over the same
      // transport: what the transport's name means now, not the article's experiment (the reference's
      // conditions say how the article's ran).
      const plain = atCount(c, countOf(c), 'default')
      return plain ? [row, [transportTitle(c.transport), c.lib, ...where, 'not the article\'s', '', '', ...events, ...nowFigures(plain)]] : [row]
    })
    out.push({ columns: textColumns(['Transport', 'Library', 'Then', 'Now', 'then unblocked', 'then done', 'then drop', ...(otherCounts.length ? ['Events'] : []), 'now unblocked (median)', 'now done (median)', 'now drop']), rows })
    out.push({ heading: 'Which findings hold', level: 3 })
    out.push('For each transport and number of CPUs, the libraries of the article ordered by time, fastest first, then (the article\'s published means) and now (these results\' medians), over the libraries with a figure on both sides; a library that lost events now is marked with its loss. ' +
      'Unblocked is the article\'s: until the last call returned (`loopReturnedMs`). ' +
      'The finding is pair by pair, from the article\'s own runs (kept in the reference file): where every run of one library was below every run of the other, the article found a lead (_then_: the ratio of its averages). ' +
      'It **holds** only where these results separate the two the same way (judged by compare\'s verdict, its estimate and interval shown); **reversed** where they separate them the other way; **lead gone** where they do not separate them. A pair whose runs overlapped in the article made no finding.')
    const findings = []
    const setBeside = (cpus) => `${articleCpus(cpus)} / ${hereLabel(cpus, env)}`
    for (const transport of unique(reference.cells.map((c) => c.transport))) {
      for (const cpus of unique(reference.cells.filter((c) => c.transport === transport).map((c) => c.cpus))) {
        const cells = reference.cells.filter((c) => c.transport === transport && c.cpus === cpus)
        for (const [measure, word] of MEASURES) {
          const both = cells.filter((c) => c[measure] != null && nowMedian(ours(c), measure) != null)
          if (both.length < 2) continue
          const then = [...both].sort((a, b) => a[measure] - b[measure]).map(labelOf)
          const now = rank(both, { measure: nowMeasure(measure), runsOf: runsOfCell }).ranked.map(labelOf)
          const byLib = (lib) => both.find((c) => labelOf(c) === lib)
          // Pair by pair: the article's finding where its runs separated the two, judged against ours.
          const pairs = []
          const unseparated = []
          const unknown = []
          for (let i = 0; i < both.length; i++) {
            for (let j = i + 1; j < both.length; j++) {
              const separated = articleSeparates(both[i], both[j], measure)
              if (!separated?.ahead) {
                (separated ? unseparated : unknown).push([labelOf(both[i]), labelOf(both[j])])
                continue
              }
              const [ahead, behind] = [separated.ahead, separated.behind].map((lib) => runsOfCell(byLib(lib)))
              const judged = judge(ahead, behind, nowMeasure(measure), { roundOf })
              pairs.push(pairFinding(separated, judged))
            }
          }
          // A library that lost events is marked: its time is that of a job not done whole.
          const lossy = (lib) => {
            const drop = ours(byLib(lib)).dropRate?.mean
            return drop > 0 ? `${lib} (${formatPct(drop)} lost)` : lib
          }
          findings.push([
            transportTitle(transport),
            setBeside(cpus),
            word,
            ordering(then),
            ordering(now.map(lossy)),
            findingOfPairs(pairs, unseparated, unknown)
          ])
        }
        for (const c of cells.filter((x) => x.failed)) {
          const s = ours(c)
          const fewer = s && s.events !== reference.events ? ` at ${s.events.toLocaleString('en-US')} events` : ''
          const now = !s ? 'not measured' : s.okRuns === 0 ? `${s.status} now too${fewer}` : `finishes now${fewer} (${s.okRuns} of ${s.runs} runs)`
          findings.push([transportTitle(transport), setBeside(cpus), 'finished', `${c.lib}: no figures`, `${c.lib}: ${now}`, !s ? 'not measured' : s.okRuns === 0 ? 'holds: no figures then, none now' : fewer ? 'not comparable (fewer events)' : 'changed'])
        }
      }
    }
    out.push(findings.length ? { columns: textColumns(['Transport', 'Then / now', 'Measure', 'Then', 'Now', 'Finding']), rows: findings } : '_No transport and number of CPUs has figures on both sides to compare._')
    return { blocks: out, charts: [] }
  }
}
