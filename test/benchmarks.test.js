import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { readJson, ROOT, tmpDir } from './helpers.js'

// npm run bench:harness, bench:truth, bench:startup, bench:paired, bench:runs-auto, bench:http-control and
// bench:latency and bench:profile are measurements run by hand; their --quick modes run every step of each in
// seconds, here, so that none can break unnoticed. Their figures at that size say nothing and are not checked;
// what is checked: exit 0, every table printed, no step failed. So they run two at a time: each
// script is its own processes and files, and no figure of one is asserted.
function runScript (script, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'benchmarks', script), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c) => { stdout += c })
    child.stderr.on('data', (c) => { stderr += c })
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${script} ${args.join(' ')} did not finish in 5 minutes\n${stderr}`))
    }, 300_000)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

// The longest first: bench:latency, then bench:paired in the same slot after it. bench:paired's load
// step is a busy loop and bench:latency's paced runs must reach 95% of their rates, so the two never
// run together; the rest (no figure of theirs asserted) share the other slot beside them, rather than
// bench:paired running alone at the end.
describe('the benchmark scripts\' quick modes', { concurrency: 2 }, () => {
  test('bench:latency --quick, then bench:paired --quick', async (t) => {
    await t.test('bench:latency --quick: the stalling logger and the pacer\'s floor, overload behind a stall and the plain program, the knee table, each row with a run ok', async () => {
      const { code, stdout, stderr } = await runScript('latency.js', ['--quick'])
      assert.equal(code, 0, stderr)
      assert.match(stdout, /--quick: checks that it works; not the note's figures/)
      for (const row of ['noop \\| 1,000', 'noop \\| 10,000', 'next-tick \\| 10,000', 'cold-start \\| 5,000', 'stalls \\| 10,000', 'pino \\| console', 'raw \\| console', 'pino \\| tcp', 'raw \\| tcp']) {
        assert.match(stdout, new RegExp(`^\\| ${row} \\| 1 \\|`, 'm'))
      }
      // raw writes synchronously: behind the stall its calls wait.
      assert.match(stdout, /^\| raw \| console \| 1 \| blocks \|/m)
      assert.match(stdout, /the plain program's [\d.]+ MiB/)
      for (const row of ['pino \\| console', 'raw:each \\| file', 'noop \\| file']) {
        assert.match(stdout, new RegExp(`^\\| ${row} \\| [\\d.,]+( [✗?~])? \\| [\\d.,]+( [✗?~])? \\| ([\\d,]+|none) \\|`, 'm'))
      }
      assert.doesNotMatch(stderr, /failed/)
    })

    await t.test('bench:paired --quick: both machines, each comparison unpaired and paired, and the checks of the load step', async () => {
      const { code, stdout, stderr } = await runScript('paired.js', ['--quick'])
      assert.equal(code, 0, stderr)
      assert.match(stdout, /^pino to a file, 2,000 events, 1 worker: .* sessions of 6 interleaved rounds \(--quick/m)
      for (const machine of ['quiet', 'step']) {
        for (const against of ['identical \\(A\\/A\\)', '\\+300 ns per call']) {
          assert.match(stdout, new RegExp(`^\\| ${machine} \\| 6 \\| ${against} \\| [\\d.]+ \\[[\\d.]+, [\\d.]+\\] \\| ±[\\d.]+% \\| \\w+ \\| [\\d.]+ \\[[\\d.]+, [\\d.]+\\] 96\\.9% \\| ±[\\d.]+% \\| \\w+ \\|$`, 'm'))
        }
      }
      assert.match(stdout, /^(met|NOT MET): A\/A under the step, 6 rounds: paired interval within ±10%$/m)
      assert.match(stdout, /^(met|NOT MET): \+300 ns under the step, 6 rounds: slower, paired$/m)
    })
  })

  test('bench:truth --quick: raw and pino side by side with their plain scripts, allocation and syslog', async () => {
    const { code, stdout, stderr } = await runScript('truth.js', ['--quick'])
    assert.equal(code, 0, stderr)
    assert.doesNotMatch(stderr, /FAILED/)
    for (const lib of ['raw', 'pino']) {
      for (const transport of ['console', 'file']) assert.match(stdout, new RegExp(`^\\| ${lib} \\| ${transport} \\| [\\d,]+ \\([\\d,]+\\) \\| [\\d,]+ \\([\\d,]+\\) \\| [\\d.]+× \\| (yes|\\*\\*no\\*\\*) `, 'm'))
    }
    assert.match(stdout, /^Bytes allocated per event, pino to a file, 20,000 events/m)
    assert.match(stdout, /^\| pino \| file \| [\d,]+ \([\d,–]+\) \| [\d,]+ \([\d,–]+\) \| [\d.]+× \| (yes|\*\*no\*\*) \|$/m)
    assert.match(stdout, /^\| pino \| tcp \| [\d,]+ \| 2,000\/2,000 \| /m)
    // CPU and write syscalls of both sides, which tell a gap of waiting from a gap of work.
    assert.match(stdout, /^\| pino \| console \| [\d,]+ \([\d,]+–[\d,]+\) \| [\d,]+ \([\d,]+–[\d,]+\) \| [\d.]+× \| [1-9][\d,]* \([\d,–]+\) \| [1-9][\d,]* \([\d,–]+\) \|$/m)
    assert.doesNotMatch(stdout, /failed/)
  })

  test('benchmarks/plain/overload.js --quick: each library\'s plain script behind a pipe whose reader stalls, beside its control', async () => {
    const { code, stdout, stderr } = await runScript(path.join('plain', 'overload.js'), ['--quick'])
    assert.equal(code, 0, stderr)
    assert.match(stdout, /^Plain scripts, 2,000 lines of 200 B to a pipe; the stalled reader stops for 200 ms after a tenth arrived; medians of 1 round\(s\)/m)
    for (const lib of ['raw', 'pino']) {
      // raw writes each line synchronously to the pipe: the stall holds its loop (about 200 ms added).
      const row = new RegExp(`^\\| ${lib} \\| ([\\d,]+) \\| ([\\d,]+) \\| (-?[\\d,]+) \\| [\\d.,]+ \\| [\\d.,]+ \\| -?[\\d.,]+ \\| 0 \\|$`, 'm').exec(stdout)
      assert.ok(row, `${lib}: no row with nothing lost in\n${stdout}`)
      if (lib === 'raw') assert.ok(Number(row[3].replace(/,/g, '')) >= 150, `raw's loop should wait out most of the 200 ms stall: ${row[0]}`)
    }
    const refused = spawnSync(process.execPath, [path.join(ROOT, 'benchmarks', 'plain', 'overload.js'), '--libs', 'nolib'], { encoding: 'utf8' })
    assert.equal(refused.status, 2)
    assert.match(refused.stderr, /^bench overload: --libs: no plain script for "nolib"/)
  })

  test('benchmarks/plain/count-eagain.cjs: a preload that counts a logger\'s writes to stdout and the EAGAINs they met', async () => {
    const dir = tmpDir()
    const counts = path.join(dir, 'eagain.txt')
    const script = path.join(ROOT, 'benchmarks', 'plain', 'pino.js')
    const preload = path.join(ROOT, 'benchmarks', 'plain', 'count-eagain.cjs')
    const ran = spawnSync('sh', ['-c', `"${process.execPath}" -r "${preload}" "${script}" console 2000 | cat > /dev/null`], { encoding: 'utf8', env: { ...process.env, EAGAIN_COUNT_FILE: counts, EAGAIN_SIDE: 'plain' } })
    assert.equal(ran.status, 0, ran.stderr)
    const [line] = fs.readFileSync(counts, 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    assert.equal(line.side, 'plain')
    assert.ok(line.writes >= 1 && line.eagain >= 0 && line.eagain <= line.writes, JSON.stringify(line))
    const unset = spawnSync(process.execPath, ['-r', preload, '-e', '0'], { encoding: 'utf8', env: { ...process.env, EAGAIN_COUNT_FILE: '' } })
    assert.equal(unset.status, 2)
    assert.match(unset.stderr, /^count-eagain\.cjs: set EAGAIN_COUNT_FILE/)
  })

  test('bench:http-control --quick: the control one server per run and --alternate, in one scenario, each cell, the A/A and the known cost', async () => {
    const { code, stdout, stderr } = await runScript('http-control.js', ['--quick'])
    // A change of exactly nothing prints as ±0.0% (formatChangePct).
    assert.equal(code, 0, stderr)
    assert.match(stderr, /--quick: checks that it works; not its figures/)
    assert.match(stdout, /^one server per run \(paired by round\):\n {2}pino: [+−±][\d.]+% \[/m)
    assert.match(stdout, /^--alternate \(each run against its own baseline\):\n {2}pino: [+−±][\d.]+% \[/m)
    assert.match(stdout, /^ {2}A\/A, none against its own baseline, 1 runs: /m)
    assert.match(stdout, /^(met|NOT MET): --alternate, 1 rounds: every control interval within ±5%/m)
    assert.match(stdout, /^(met|NOT MET): --alternate, 1 rounds: every control cell reads same \(\d of 1; noise ±5%, requests\/s' own\)$/m)
    // The known cost, both ways: its own lines, and not counted among the control's cells.
    assert.match(stdout, /^the known cost, pino at 5 logs per request of 20 characters, requests\/s against none:\n {2}one server per run: [+−±][\d.]+% \[.*\n {2}--alternate: [+−±][\d.]+% \[/m)
    assert.match(stdout, /^(met|NOT MET): the known cost reads slower in both designs$/m)
    assert.match(stdout, /^(met|NOT MET): the alternated cost lies within the single-server interval$/m)
  })

  test('bench:harness --quick: every section runs and prints its table', async () => {
    const { code, stdout, stderr } = await runScript('harness.js', ['--quick'])
    assert.equal(code, 0, stderr)
    assert.match(stderr, /--quick: checks that it works; not its figures\): 20,000 events per worker/)
    for (const heading of [/^noop floor/m, /^embedded sink capacity/m, /^verifier: a 20,000-line pino-style file/m, /^harness overhead per run/m, /^what timing each call costs/m]) assert.match(stdout, heading)
    assert.match(stdout, /^\| console +\| +[\d.,]+ \| +[\d.,]+ \| +[\d.,]+ \|$/m)
    assert.match(stdout, /^\| tcp +\| +2 \| node:net \|/m)
    assert.match(stdout, /^\| pino +\| 1 in \d+ \(default\) \|/m)
  })

  test('benchmarks/anomalies.js --quick: the plain scripts behind the pages\' explained anomalies each print their line', async () => {
    const { code, stdout, stderr } = await runScript('anomalies.js', ['--quick'])
    assert.equal(code, 0, stderr)
    assert.match(stdout, /^queue: winston to a file, after a loop of 2,000 calls, before it yields: [\d,]+ events waiting/m)
    assert.match(stdout, /^shift: 4,000 queued messages drained with Array#shift in \d+ ms \(all\)$/m)
    assert.match(stdout, /^writestream: node [\d.]+, 2,000 lines through fs\.createWriteStream: the loop [\d.]+ ms, done [\d.]+ ms, [\d,]+ bytes$/m)
    assert.match(stdout, /^disabled: winston at level info, 2,000 logger\.debug\(\) calls: the logger's format ran [\d,]+ times and the transport logged \d+; the loop took [\d.]+ ms/m)
    assert.match(stdout, /^tcp: logged 2,000; when close\(\) destroyed the socket, inFlight was -?\d+, \d+ queued, [\d,]+ bytes still in the socket's write buffer; arrived [\d,]+ /m)
    const closed = stdout.match(/^closed: 500 events paced at 10,000\/s, 500 arrived before logger\.end\(\) at [\d.]+ ms; Syslog#close\(\) ran at ([\d.]+) ms with 0 queued and inFlight -?\d+, 'closed' came at ([\d.]+) ms, the logger's 'finish' at ([\d.]+) ms$/m)
    assert.ok(closed, stdout)
    // 'closed' before 'finish': a listener added after 'finish' never hears it.
    assert.ok(Number(closed[2]) <= Number(closed[3]), closed[0])
    assert.match(stdout, /^closed: over UDP, 500 events logged 20 a turn, 300 ms later [\d,]+ had arrived, \d+ queued and inFlight -?\d+; 'closed' came \d+ ms after logger\.end\(\)$/m)
    const wrong = await runScript('anomalies.js', ['nope'])
    assert.equal(wrong.code, 2)
    assert.match(wrong.stderr, /^anomalies\.js: expected shift, tcp, closed, queue, disabled, writestream or all, got "nope"$/m)
  })

  test('bench:startup --quick: --version and each --help timed beside node -e 0', async () => {
    const { code, stdout, stderr } = await runScript('startup.js', ['--quick'])
    assert.equal(code, 0, stderr)
    assert.match(stdout, /^\| node -e 0 +\| +[\d,]+ \| +\| +\|$/m)
    for (const command of ['--version', '--help', 'run --help', 'http --help', 'report --help']) {
      assert.match(stdout, new RegExp(`^\\| log-bench ${command} +\\| +[\\d,]+ \\| +[+-][\\d,]+ \\| +(yes|\\*\\*no\\*\\*) \\|$`, 'm'))
    }
  })

  test('bench:runs-auto --quick: the design, and each line of A/As and the A/B with its rounds', async () => {
    const { code, stdout, stderr } = await runScript('runs-auto.js', ['--quick'])
    assert.equal(code, 0, stderr)
    assert.match(stdout, /^--runs auto \(6 to 20 rounds\): looks at 6, 9, 14, 20 rounds, each at α 0\.0167 \(α 0\.05\); 400 sessions each, seed 1 \(--quick/m)
    for (const line of ['A/A, --noise 2%', 'A/A, --noise 0', 'A/A, --noise 0, naive \\(a look at every round from 6 to 20, each at α 0\\.05\\)', 'A/B 5% slower, --noise 2%']) {
      assert.match(stdout, new RegExp(`^${line}: faster or slower \\d+ \\([\\d.]+%\\), same \\d+, unclear \\d+.*; stopped after \\(rounds: sessions\\) \\d+: \\d+`, 'm'))
    }
  })

  test('bench:ties: the first places not separated from the next, unpaired, as judged and paired, from a page\'s JSON', async () => {
    const { code, stdout, stderr } = await runScript('ties.js', ['results/seed-article.json'])
    assert.equal(code, 0, stderr)
    // The committed seed page's rounds (its cells' runs) and comparison groups, from its JSON: the
    // smallest paired p of n rounds is 2^-(n-1) (every round one way, one-sided, doubled).
    const { cellKey, comparisonGroupKey, runsByCell } = await import('../src/results/model.js')
    const doc = readJson(path.join(ROOT, 'results/seed-article.json'))
    const rounds = Math.max(...runsByCell(doc.runs, 'run').map((cellRuns) => cellRuns.length))
    const head = stdout.match(/^results\/seed-article\.json \((\d+) rounds; paired, the smallest p is ([\d.]+)\)$/m)
    assert.ok(head, stdout)
    assert.equal(Number(head[1]), rounds)
    assert.ok(Math.abs(Number(head[2]) - 0.5 ** (rounds - 1)) < 1e-4, head[0])
    // A comparison needs two libraries with runs that finished: a group of one (bunyan:sys, its
    // receiving end of its own) has no first place to share.
    const cellsOfGroup = new Map()
    for (const r of doc.runs.filter((r) => r.ok)) {
      const key = String(comparisonGroupKey(r))
      if (!cellsOfGroup.has(key)) cellsOfGroup.set(key, new Set())
      cellsOfGroup.get(key).add(cellKey(r))
    }
    const groups = [...cellsOfGroup.values()].filter((cells) => cells.size > 1).length
    for (const how of ['unpaired', 'as the pages judge', 'paired, every round']) assert.match(stdout, new RegExp(`^  ${how}: \\d+ of ${groups} first places are not separated from the next(, \\d+ not ranked \\(the page's rule withholds them\\))?; interval of the second against the first: (±[\\d.]+% \\(median\\)|no ranked group to measure it on)$`, 'm'))
  })

  test('bench:profile --quick: pino to a file without and with --profile, and where its profiled time went', async () => {
    const { code, stdout, stderr } = await runScript('profile-overhead.js', ['--quick'])
    assert.equal(code, 0, stderr)
    assert.match(stderr, /--quick: checks that it works; not its figures\): pino on file, 2,000 events/)
    // Done time, then CPU time: each plain, profiled and their ratio.
    assert.match(stdout, /^\| pino +\| +file( \| +[\d.,]+ \| +[\d.,]+ \| +[\d.]+× \([\d.]+–[\d.]+\)){2} \|$/m)
    assert.match(stdout, /^where the time went/m)
    assert.match(stdout, /^\| pino +\| +file \| +\S.* [\d.]+% \([\d.,]+ µs\/event\) \| +\S.* [\d.]+% \|$/m)
  })

  test('benchmarks/plain/pino-cpu-prof.js: pino under node --cpu-prof, its self time tallied, then timed with and without Buffer.byteLength', async () => {
    const { code, stdout, stderr } = await runScript('plain/pino-cpu-prof.js', ['2000', '1'])
    assert.equal(code, 0, stderr)
    assert.match(stdout, /^pino to a file, 2,000 events, under node --cpu-prof: self time$/m)
    assert.match(stdout, /^ +[\d.]+% {2}\S/m)
    assert.match(stdout, /^ {2}Buffer\.byteLength as it is +unblocked \d+ ms, done \d+ ms$/m)
    assert.match(stdout, /^ {2}Buffer\.byteLength as the string's length +unblocked \d+ ms, done \d+ ms$/m)
    assert.match(stdout, /^ {2}the string flattened, then its length +unblocked \d+ ms, done \d+ ms$/m)
    const wrong = await runScript('plain/pino-cpu-prof.js', ['many'])
    assert.equal(wrong.code, 2)
    assert.match(wrong.stderr, /^usage: node benchmarks\/plain\/pino-cpu-prof\.js/)
  })

  test('benchmarks/plain/sonic-boom-byte-length.js --quick: sonic-boom as published against a running byte count, the same bytes for multi-byte text', async () => {
    const { code, stdout, stderr } = await runScript('plain/sonic-boom-byte-length.js', ['--quick'])
    assert.equal(code, 0, stderr)
    assert.match(stdout, /^sonic-boom \d+\.\d+\.\d+: multi-byte lines written byte for byte the same by both copies \([\d,]+ bytes\); the patched copy's \d+ pending chunks at most \d+ bytes \(maxWrite \d+\)/m)
    assert.match(stdout, /^ {2}as published \(Buffer\.byteLength of the chunk\) +loop \d+ ms, done \d+ ms/m)
    assert.match(stdout, /^ {2}running byte count of the last chunk +loop \d+ ms, done \d+ ms/m)
    assert.match(stdout, /^ {2}patched \/ published, median of the rounds' ratios: loop [\d.]+, done [\d.]+$/m)
    const wrong = await runScript('plain/sonic-boom-byte-length.js', ['lots'])
    assert.equal(wrong.code, 2)
    assert.match(wrong.stderr, /^usage: node benchmarks\/plain\/sonic-boom-byte-length\.js/)
  })

  test('benchmarks/plain/pino-transport-paced.js: pino.transport paced to stdout, counting sonic-boom\'s waits on a full pipe', async () => {
    const { code, stdout, stderr } = await runScript('plain/pino-transport-paced.js', ['2000', '20000'])
    assert.equal(code, 0, stderr)
    assert.equal(stdout.split('\n').filter(Boolean).length, 2000)
    const [waits, run] = stderr.trim().split('\n').map((line) => JSON.parse(line))
    assert.equal(waits.eagain, waits.at.length)
    assert.deepEqual([run.events, run.rate], [2000, 20000])
    assert.ok(run.doneMs >= run.loggingMs)
    const wrong = await runScript('plain/pino-transport-paced.js', ['many'])
    assert.equal(wrong.code, 2)
    assert.match(wrong.stderr, /^usage: node benchmarks\/plain\/pino-transport-paced\.js/)
  })

  test('benchmarks/plain/paced-response.js: a library paced to stdout, its calls timed from their intended time, the slow ones located', async () => {
    const { code, stdout, stderr } = await runScript('plain/paced-response.js', ['bunyan', '2000', '200'])
    assert.equal(code, 0, stderr)
    assert.equal(stdout.split('\n').filter(Boolean).length, 200)
    const result = JSON.parse(stderr)
    assert.deepEqual([result.lib, result.rate, result.events], ['bunyan', 2000, 200])
    assert.ok(result.over1MsInFirst100Ms <= result.over1Ms)
    assert.ok(result.over1MsAtMs.every((ms) => ms >= 0 && ms < 100))
    const wrong = await runScript('plain/paced-response.js', ['nope', '2000', '200'])
    assert.equal(wrong.code, 2)
    assert.match(wrong.stderr, /^usage: node benchmarks\/plain\/paced-response\.js/)
  })
})
