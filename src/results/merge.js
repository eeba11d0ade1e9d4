import path from 'node:path'
import { UsageError } from '../errors.js'
import { cellKey, workersLabel } from './model.js'
import { optionDifferences } from './plans.js'
import { roundsOf } from './rounds.js'
import { SUMMARIZERS } from './summaries.js'
import { environmentDifference } from './read.js'

const HARDWARE_FIELDS = ['hostname', 'cpuModel', 'cpuCount', 'allowedCpus', 'memoryBytes', 'os', 'node']
// What kind of machine each shard ran on (a VM or not, in a container or not): the conditions line
// beside a merged page's headline names each shard's (src/report/conditions.js).
const MACHINE_FIELDS = ['machine']
// What measured: shards of two commits of log-bench may measure differently (a fix to the timing,
// a changed default), so a merged document names one commit only where every shard had it.
const CODE_FIELDS = ['gitCommit', 'logBenchVersion']
// How busy each shard's machine was when it began and while it ran: a page says so per shard
// (src/report/limits.js).
const START_FIELDS = ['loadAverage', 'availableMemoryBytes', 'loadSamples']

// Joins the shards of one plan (log-bench run --shard k/n) into the document the unsharded run
// would have written: same cells in the same order. Refuses results of different plans, a shard
// given twice, a run present in two files, and (unless allowed) shards measured on different hardware.
// out: where the merged document will be written; a run's .cpuprofile files (cpuProfiles, named
// relative to its shard's file) are then named relative to it, so they are found from there.
export function mergeShards (
  inputs,
  { allowMixedHardware = false, allowMixedCommits = false, summarizers = SUMMARIZERS, out = null } = {}
) {
  // A scenario run whole on one machine (--shard 1/1, as the results workflow runs `versions`) is one
  // shard: merging it checks it and writes the unsharded document like any merge.
  const oneWhole = inputs.length === 1 && inputs[0].doc.env?.plan?.shard === '1/1'
  if (inputs.length < 2 && !oneWhole) throw new UsageError('merge needs at least two results files (or the one shard of --shard 1/1)')
  const [first] = inputs
  for (const { file, doc } of inputs) {
    if (!doc.env.plan) throw new UsageError(`${file}: has no plan (written by an older log-bench?); only results of log-bench run can be merged`)
    if (doc.env.plan.id !== first.doc.env.plan.id) {
      throw new UsageError(`${file} holds results of another plan than ${first.file} (${planDifference(first, { file, doc })}): only shards of the same scenario or options can be merged`)
    }
  }
  const shards = inputs.map(({ file, doc }) => ({ file, doc, shard: parseShardLabel(doc.env.plan.shard, file) }))
  const n = shards[0].shard.n
  const seen = new Map()
  for (const { file, shard } of shards) {
    if (shard.n !== n) throw new UsageError(`${file} is shard ${shard.k}/${shard.n} but ${shards[0].file} is one of ${n}: shards of different splits cannot be merged`)
    if (seen.has(shard.k)) throw new UsageError(`${file} and ${seen.get(shard.k)} are both shard ${shard.k}/${n}`)
    seen.set(shard.k, file)
  }
  for (const { file, doc } of shards.slice(1)) {
    const difference = environmentDifference(first.doc.env, doc.env)
    if (difference && !(allowMixedHardware && isHardwareOnly(first.doc.env, doc.env))) {
      throw new UsageError(`${first.file} and ${file} were measured in different environments (${difference})${isHardwareOnly(first.doc.env, doc.env) ? ': add --allow-mixed-hardware to merge them anyway, each run keeping the shard it came from' : ''}`)
    }
  }
  refuseMixedOrders(shards)
  const mixedCode = shards.find(({ doc }) =>
    CODE_FIELDS.some((field) => (doc.env[field] ?? null) !== (first.doc.env[field] ?? null)))
  if (mixedCode && !allowMixedCommits) {
    const code = (env) => `${env.gitCommit ? `commit ${env.gitCommit.slice(0, 12)}` : 'no commit recorded'} (log-bench ${env.logBenchVersion ?? 'unknown'})`
    throw new UsageError(`${first.file} and ${mixedCode.file} were measured by different log-bench code: ${code(first.doc.env)} vs ${code(mixedCode.doc.env)}: measure every shard at one commit, or add --allow-mixed-commits to merge them anyway (env.shards then names each shard's commit)`)
  }
  const runs = interleave(shards, n)
  // Shards from different machines: every run says which (its shard holds whole comparison groups,
  // so a group is one machine), and reports keep each machine's groups in tables of their own.
  const machines = new Map(shards.map(({ doc, shard }) => [`${shard.k}/${shard.n}`, machineLabel(doc.env)]))
  if (new Set(machines.values()).size > 1) for (const run of runs) run.machine = machines.get(run.shard)
  const owner = new Map()
  for (const run of runs) {
    const key = `${cellKey(run)}#${run.run}`
    if (owner.has(key)) throw new UsageError(`${run.shardFile} and ${owner.get(key)} both hold ${run.lib} ${run.transport} ${workersLabel(run.cpus)} run ${run.run}: duplicate results`)
    owner.set(key, run.shardFile)
  }
  const missing = []
  for (let k = 1; k <= n; k++) if (!seen.has(k)) missing.push(`${k}/${n}`)
  const doc = {
    schema: first.doc.schema,
    tool: 'log-bench',
    kind: 'results',
    complete: missing.length === 0 && shards.every(({ doc }) => doc.complete === true),
    interrupted: shards.some(({ doc }) => doc.interrupted === true),
    env: {
      ...first.doc.env,
      // Several versions comma-separated, as env.libVersions holds a library measured at several.
      ...(mixedCode ? { gitCommit: null, logBenchVersion: [...new Set(shards.map(({ doc }) => doc.env.logBenchVersion ?? 'unknown'))].join(', ') } : {}),
      libVersions: Object.assign({}, ...shards.map(({ doc }) => doc.env.libVersions)),
      ...mergedOrder(shards),
      plan: { ...first.doc.env.plan, shard: null, shardCells: first.doc.env.plan.cells, mergedShards: [...seen.keys()].sort((a, b) => a - b).map((k) => `${k}/${n}`), missingShards: missing },
      shards: shards.map(({ file, doc, shard }) => ({ shard: `${shard.k}/${shard.n}`, file, ...pick(doc.env, HARDWARE_FIELDS), ...pick(doc.env, MACHINE_FIELDS), ...pick(doc.env, CODE_FIELDS), ...pick(doc.env, START_FIELDS), seed: doc.env.order?.seed ?? null, time: doc.env.time, finishedAt: doc.env.finishedAt ?? null, complete: doc.complete === true })),
      finishedAt: shards.map(({ doc }) => doc.env.finishedAt ?? doc.env.time).sort().at(-1)
    },
    runs: runs.map(({ shardFile, ...run }) => (out ? relinkProfiles(run, shardFile, out) : run))
  }
  doc.summary = summarizers.flatMap((summarizeRuns) => summarizeRuns(doc.runs, { roundOf: roundsOf(doc) }))
  return { doc, missing }
}

// Runs back in plan order: by the position each run recorded (planIndex); for shards written before
// it, cell j of shard k was cell j·n + (k − 1) of the full plan.
function interleave (shards, n) {
  const positioned = []
  for (const { file, doc, shard } of shards) {
    const order = []
    for (const run of doc.runs) {
      const key = cellKey(run)
      if (!order.includes(key)) order.push(key)
    }
    for (const run of doc.runs) {
      positioned.push({ position: run.planIndex ?? order.indexOf(cellKey(run)) * n + (shard.k - 1), run: { ...run, shard: `${shard.k}/${shard.n}`, shardFile: file } })
    }
  }
  return positioned.sort((a, b) => a.position - b.position).map((p) => p.run)
}

// A run's profile files named from the merged file's directory instead of its shard's: the files stay
// where the shard's run wrote them (nothing is copied), and the link from the merged file reaches them
// (../shard-1/r.pino-file-1w.….cpuprofile). A '/' separates, whatever the platform.
export function relinkProfiles (run, shardFile, out) {
  if (!Array.isArray(run.cpuProfiles)) return run
  const [from, to] = [path.dirname(path.resolve(shardFile)), path.dirname(path.resolve(out))]
  const cpuProfiles = run.cpuProfiles.map((entry) => (typeof entry?.file === 'string'
    ? { ...entry, file: path.relative(to, path.resolve(from, entry.file)).split(path.sep).join('/') }
    : entry))
  return { ...run, cpuProfiles }
}

// A shard started on fewer CPUs than its machine has (a taskset, a container's CPU set) is labelled
// with them: its runs had those CPUs only.
export function machineLabel (env) {
  const every = env.cpuCount === 1 ? '0' : `0-${env.cpuCount - 1}`
  const narrowed = env.allowedCpus != null && env.allowedCpus !== every
  return `${env.cpuModel} (${env.cpuCount} cores${narrowed ? `, CPU ${env.allowedCpus} allowed` : ''}${env.hostname ? `, ${env.hostname}` : ''})`
}

function parseShardLabel (label, file) {
  const match = /^(\d+)\/(\d+)$/.exec(label ?? '')
  if (!match) throw new UsageError(`${file} is not a shard (it was not written with --shard k/n); merge joins shards of one plan`)
  return { k: Number(match[1]), n: Number(match[2]) }
}

function isHardwareOnly (a, b) {
  return a.node === b.node && JSON.stringify(a.libVersions) === JSON.stringify(b.libVersions)
}

// What tells two shards' plans apart, first file's side first: "events 1000 vs 2000".
function planDifference (a, b) {
  const [x, y] = [a.doc.env.plan, b.doc.env.plan]
  if (x.kind !== y.kind || x.name !== y.name) return `${describePlan(x)} vs ${describePlan(y)}`
  const differences = optionDifferences(a.doc.env.options, b.doc.env.options)
  return differences.length ? `${path.basename(a.file)}'s vs ${path.basename(b.file)}'s: ${differences.join(', ')}` : `the same ${describePlan(x)}, but its file changed between the shards`
}

function describePlan (plan) {
  return plan.kind === 'scenario' ? `scenario "${plan.name}"` : 'command-line options'
}

function pick (object, fields) {
  return Object.fromEntries(fields.map((f) => [f, object[f]]))
}

// A merged document has one order: a shard run with --order blocked beside an interleaved one would
// have its back-to-back runs paired as rounds. Refused, naming both.
function refuseMixedOrders (shards) {
  const modeOf = ({ doc }) => doc.env.order?.mode ?? 'not recorded'
  const other = shards.find((shard) => modeOf(shard) !== modeOf(shards[0]))
  if (other) throw new UsageError(`${shards[0].file} ran its runs ${modeOf(shards[0])} and ${other.file} ${modeOf(other)} (--order): shards of one document must share one order; run every shard with the same --order`)
}

// Each shard's own seed ordered its own groups: the merged document names one seed where every
// shard had it, else none (env.shards names each shard's). --runs auto: each shard records the design
// of its own groups (env.order.sequential); the merged document holds every shard's groups under
// their design.
function mergedOrder (shards) {
  const seeds = [...new Set(shards.map(({ doc }) => doc.env.order?.seed ?? null))]
  const first = shards[0].doc.env.order
  const order = first ? { order: { ...first, seed: seeds.length === 1 ? seeds[0] : null } } : {}
  const designs = new Map()
  for (const { doc } of shards) {
    for (const { groups = [], ...design } of doc.env.order?.sequential ?? []) {
      const key = JSON.stringify(design)
      if (!designs.has(key)) designs.set(key, { ...design, groups: [] })
      designs.get(key).groups.push(...groups)
    }
  }
  return designs.size ? { order: { ...order.order, sequential: [...designs.values()] } } : order
}
