// npm run bench:runs-auto -- [--aas 10000] [--seed 1] [--quick]
//
// The false-positive rate of --runs auto, simulated: many A/As (two cells of identical code) run
// under the rule log-bench applies (src/results/sequential.js): rounds 1, 2, … with a look at each
// of the design's round counts (6, 9, 14, 20 by default), where the comparison is judged paired, at
// the look's α, and stops once decided (same, faster or slower). A false positive is an A/A that
// reads faster or slower at any look. Each round's drift (up to ±40%, uniform on the log scale) is
// shared by both cells of the round, and each run has a spread of its own (σ 3% of the logarithm).
// Printed for the default noise threshold (±2%) and without one (--noise 0: the test's error alone),
// with the rounds the A/As took; against it, the same A/As judged at every round at the whole α
// (what looking again and again does to the rate); and, for scale, how often and after how many rounds an A/B with a
// 5% difference reads slower. --quick: 400 A/As (a test runs it).
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { compareRuns, DEFAULT_ALPHA, DEFAULT_NOISE, seededRandom } from '../src/stats.js'
import { sequentialDesign } from '../src/results/sequential.js'
import { AUTO_RUNS } from '../src/api/runs-option.js'

// A normal deviate from two uniforms (Box–Muller), for the runs' own spread.
function normal (next) {
  return Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next())
}

// One session of two cells under the design: the verdict it ends with and the rounds it took.
function session (next, design, { ratio = 1, noise = DEFAULT_NOISE, spread = 0.03, drift = Math.log(1.4) }) {
  const options = { alpha: design.lookAlpha, minPairs: 2, noise, better: 'lower' }
  const pairs = []
  let verdict = null
  for (let round = 1; round <= design.max; round++) {
    const shared = Math.exp(drift * (2 * next() - 1))
    pairs.push([
      1000 * shared * Math.exp(spread * normal(next)),
      1000 * ratio * shared * Math.exp(spread * normal(next))
    ])
    if (!design.looks.includes(round)) continue
    verdict = compareRuns(pairs.map(([x]) => x), pairs.map(([, y]) => y), { ...options, pairs }).verdict
    if (verdict !== 'unclear') return { verdict, rounds: round }
  }
  return { verdict, rounds: design.max }
}

// aas A/As (ratio 1) or A/Bs under the design of --runs auto:min..max at alpha.
// naive: a look at every round from min to max, each at the whole α (what --runs auto avoids).
export function simulateAA ({
  aas = 10_000,
  seed = 1,
  ratio = 1,
  noise = DEFAULT_NOISE,
  alpha = DEFAULT_ALPHA,
  min = AUTO_RUNS.min,
  max = AUTO_RUNS.max,
  naive = false
} = {}) {
  const planned = sequentialDesign({ min, max }, { alpha, noise })
  const design = naive
    ? { ...planned, looks: Array.from({ length: max - min + 1 }, (_, i) => min + i), lookAlpha: alpha }
    : planned
  const next = seededRandom(seed)
  const verdicts = {}
  const rounds = {}
  for (let i = 0; i < aas; i++) {
    const result = session(next, design, { ratio, noise })
    verdicts[result.verdict] = (verdicts[result.verdict] ?? 0) + 1
    rounds[result.rounds] = (rounds[result.rounds] ?? 0) + 1
  }
  return { aas, design, verdicts, rounds, falsePositives: (verdicts.faster ?? 0) + (verdicts.slower ?? 0) }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let values
  try {
    ({ values } = parseArgs({ options: { aas: { type: 'string' }, seed: { type: 'string' }, quick: { type: 'boolean', default: false } } }))
  } catch (err) {
    process.stderr.write(`bench:runs-auto: ${err.message}\n`)
    process.exit(2)
  }
  const aas = Number(values.aas ?? (values.quick ? 400 : 10_000))
  const seed = Number(values.seed ?? 1)
  if (!Number.isSafeInteger(aas) || aas < 1 || aas > 10_000_000) {
    process.stderr.write(`bench:runs-auto: --aas must be a whole number from 1 to 10,000,000, got "${values.aas}"\n`)
    process.exit(2)
  }
  if (!Number.isSafeInteger(seed)) {
    process.stderr.write(`bench:runs-auto: --seed must be a whole number, got "${values.seed}"\n`)
    process.exit(2)
  }
  const share = (n, of) => `${(100 * n / of).toFixed(2)}%`
  const roundsText = (rounds) => Object.entries(rounds).map(([n, count]) => `${n}: ${count.toLocaleString('en-US')}`).join(', ')
  const lines = []
  for (const [what, ratio, noise, naive] of [['A/A, --noise 2%', 1, DEFAULT_NOISE], ['A/A, --noise 0', 1, 0], ['A/A, --noise 0, naive (a look at every round from 6 to 20, each at α 0.05)', 1, 0, true], ['A/B 5% slower, --noise 2%', 1.05, DEFAULT_NOISE]]) {
    const result = simulateAA({ aas, seed, ratio, noise, naive })
    const { design, verdicts } = result
    if (!lines.length) lines.push(`--runs auto (${AUTO_RUNS.min} to ${AUTO_RUNS.max} rounds): looks at ${design.looks.join(', ')} rounds, each at α ${design.lookAlpha.toFixed(4)} (α ${design.alpha}); ${aas.toLocaleString('en-US')} sessions each, seed ${seed}${values.quick ? ' (--quick: checks that it works; not its figures)' : ''}`, '')
    lines.push(`${what}: faster or slower ${result.falsePositives.toLocaleString('en-US')} (${share(result.falsePositives, aas)}), same ${(verdicts.same ?? 0).toLocaleString('en-US')}, unclear ${(verdicts.unclear ?? 0).toLocaleString('en-US')}${ratio !== 1 ? `, slower ${share(verdicts.slower ?? 0, aas)}` : ''}; stopped after (rounds: sessions) ${roundsText(result.rounds)}`)
  }
  process.stdout.write(lines.join('\n') + '\n')
}
