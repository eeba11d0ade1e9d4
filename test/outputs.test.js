import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { ADAPTERS, readJson, ROOT, runCli, tmpDir, waitFor } from './helpers.js'

// Nothing is written outside the paths the user named, no output replaces one of the command's
// inputs, and a page or CSV never replaces a results file.

const RESULTS = path.join(ROOT, 'test', 'fixtures', 'report', 'results.json')

function workDir () {
  const dir = tmpDir()
  fs.copyFileSync(RESULTS, path.join(dir, 'r.json'))
  return dir
}

async function refused (args, cwd, pattern) {
  const before = snapshot(cwd)
  const result = await runCli(args, { cwd })
  assert.equal(result.code, 2, result.stderr + result.stdout)
  assert.match(result.stderr, pattern)
  assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr)
  assert.deepEqual(snapshot(cwd), before, 'nothing written, nothing replaced')
}

// Every file under dir with its bytes.
function snapshot (dir) {
  const files = {}
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath ?? entry.path, entry.name)
    files[path.relative(dir, full)] = entry.isFile() ? fs.readFileSync(full, 'base64') : entry.isDirectory() ? 'dir' : 'other'
  }
  return files
}

describe('an output that is one of the inputs is refused', () => {
  it('report r.json --out r.json', async () => {
    const dir = workDir()
    await refused(['report', 'r.json', '--out', 'r.json'], dir, /^log-bench: --out r\.json is one of the inputs/)
  })

  it('report r.json --out through another spelling of the path, and through a hard link', async () => {
    const dir = workDir()
    fs.mkdirSync(path.join(dir, 'sub'))
    fs.linkSync(path.join(dir, 'r.json'), path.join(dir, 'hard.json'))
    await refused(['report', 'r.json', '--out', 'sub/../r.json'], dir, /is one of the inputs/)
    await refused(['report', 'r.json', '--out', 'hard.json'], dir, /--out hard\.json is the same file as the input r\.json/)
  })

  it('report --format csv whose CSV would be an input', async () => {
    const dir = workDir()
    fs.copyFileSync(path.join(dir, 'r.json'), path.join(dir, 'r.csv'))
    await refused(['report', 'r.csv', '--out', 'r.md', '--format', 'md,csv'], dir, /--out r\.md \(r\.csv\) is one of the inputs/)
  })

  it('merge a.json b.json --out a.json', async () => {
    const dir = workDir()
    await refused(['merge', 'r.json', '--out', 'r.json'], dir, /--out r\.json is one of the inputs/)
  })

  it('run --scenario s.json --out s.json, and --out naming the adapter file', async () => {
    const dir = workDir()
    fs.copyFileSync(path.join(ROOT, 'scenarios', 'quick.json'), path.join(dir, 's.json'))
    fs.copyFileSync(path.join(ADAPTERS, 'slow.js'), path.join(dir, 'adapter.js'))
    await refused(['run', '--scenario', 's.json', '--out', 's.json'], dir, /--out s\.json is one of the inputs/)
    await refused(['run', '--lib', './adapter.js', '--out', 'adapter.js'], dir, /--out adapter\.js is one of the inputs/)
    await refused(['http', '--lib', './adapter.js', '--out', './adapter.js'], dir, /--out \.\/adapter\.js is one of the inputs/)
  })
})

describe('a page or CSV never replaces a results file', () => {
  it('report a.json --out b.json, where b.json holds results', async () => {
    const dir = workDir()
    fs.copyFileSync(path.join(dir, 'r.json'), path.join(dir, 'other.json'))
    await refused(['report', 'r.json', '--out', 'other.json'], dir, /--out other\.json holds log-bench results, which this output would replace/)
  })

  it('a pages file whose page is one of its results files', async () => {
    const dir = workDir()
    fs.writeFileSync(path.join(dir, 'pages.json'), JSON.stringify({ pages: [{ out: 'r.md', results: ['r.json'] }, { out: 'pages.md', results: ['r.json'] }] }))
    fs.copyFileSync(path.join(dir, 'r.json'), path.join(dir, 'r.md'))
    await refused(['report', '--pages', 'pages.json'], dir, /pages\.json: page r\.md holds log-bench results/)
  })

  it('--format terminal prints the tables and writes nothing, whatever --images names', async () => {
    const dir = workDir()
    fs.writeFileSync(path.join(dir, 'images'), 'a file where the charts would go\n')
    const before = fs.readdirSync(dir).sort()
    const result = await runCli(['report', 'r.json', '--format', 'terminal'], { cwd: dir })
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stdout, /^\| Transport +\| Workers/m)
    assert.doesNotMatch(result.stdout, /\*\*|<br>|wrote /)
    assert.deepEqual(fs.readdirSync(dir).sort(), before)
    // The charts go beside the page: ./images for a page in this directory.
    const page = await runCli(['report', 'r.json', '--format', 'md,terminal', '--out', 'page.md'], { cwd: dir })
    assert.equal(page.code, 2)
    assert.match(page.stderr, /--images images/)
  })

  it('report --out elsewhere/page.md writes its charts beside the page (elsewhere/images), not in ./images', async () => {
    const dir = workDir()
    const result = await runCli(['report', 'r.json', '--format', 'md', '--out', path.join('elsewhere', 'page.md')], { cwd: dir })
    assert.equal(result.code, 0, result.stderr)
    assert.equal(fs.existsSync(path.join(dir, 'images')), false)
    const page = fs.readFileSync(path.join(dir, 'elsewhere', 'page.md'), 'utf8')
    const links = [...page.matchAll(/!\[[^\]]*\]\(([^)]+\.png)\)/g)].map((m) => m[1])
    assert.ok(links.length > 0 && links.every((link) => link.startsWith('images/') && fs.existsSync(path.join(dir, 'elsewhere', link))), links.join(', '))
    assert.match(result.stdout, /in elsewhere\/images\//)
  })

  it('a markdown page that exists is refused without --force, and replaced with it', async () => {
    const dir = workDir()
    fs.writeFileSync(path.join(dir, 'page.md'), 'old page\n')
    await refused(['report', 'r.json', '--out', 'page.md', '--format', 'md,csv'], dir, /^log-bench: --out page\.md already exists: add --force to replace it/)
    const result = await runCli(['report', 'r.json', '--out', 'page.md', '--format', 'md,csv', '--force'], { cwd: dir })
    assert.equal(result.code, 0, result.stderr)
    assert.match(fs.readFileSync(path.join(dir, 'page.md'), 'utf8'), /^# log-bench results/)
  })
})

// A scenario's output comes from the scenario file, which may come from anyone.
describe('a scenario\'s output stays under the current directory and replaces only results', () => {
  const scenario = (dir, output) => {
    const file = path.join(dir, 'work', 's.json')
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, JSON.stringify({ name: 'tiny', output, run: [{ libs: ['noop'], transports: ['file'], events: 10, runs: 1 }] }))
    return file
  }

  it('an absolute path outside: an existing text file is not overwritten', async () => {
    const dir = tmpDir()
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'mine\n')
    scenario(dir, path.join(dir, 'notes.txt'))
    await refused(['run', '--scenario', 's.json'], path.join(dir, 'work'), /output .*notes\.txt is outside the current directory .*give --out to write elsewhere/)
    assert.equal(fs.readFileSync(path.join(dir, 'notes.txt'), 'utf8'), 'mine\n')
  })

  it('../ out of the current directory: no directory is created', async () => {
    const dir = tmpDir()
    scenario(dir, '../../newdir/deeper/x.json')
    const result = await runCli(['run', '--scenario', 's.json'], { cwd: path.join(dir, 'work') })
    assert.equal(result.code, 2)
    assert.match(result.stderr, /is outside the current directory/)
    assert.equal(fs.existsSync(path.join(dir, 'newdir')), false)
    assert.equal(fs.existsSync(path.join(path.dirname(dir), 'newdir')), false)
  })

  it('through a symbolic link that leads outside', async () => {
    const dir = tmpDir()
    scenario(dir, 'out/new/x.json')
    fs.symlinkSync(dir, path.join(dir, 'work', 'out'))
    const result = await runCli(['run', '--scenario', 's.json'], { cwd: path.join(dir, 'work') })
    assert.equal(result.code, 2)
    assert.match(result.stderr, /leads outside the current directory through a symbolic link/)
    assert.equal(fs.existsSync(path.join(dir, 'new')), false)
  })

  it('a file inside that is not log-bench results is never replaced', async () => {
    const dir = tmpDir()
    scenario(dir, 'README.md')
    fs.writeFileSync(path.join(dir, 'work', 'README.md'), '# mine\n')
    const result = await runCli(['run', '--scenario', 's.json'], { cwd: path.join(dir, 'work') })
    assert.equal(result.code, 2)
    assert.match(result.stderr, /output README\.md exists and is not a log-bench results file: it is never replaced/)
    assert.equal(fs.readFileSync(path.join(dir, 'work', 'README.md'), 'utf8'), '# mine\n')
  })

  it('inside, in a new directory, and --out deciding instead of an output outside', async () => {
    const dir = tmpDir()
    scenario(dir, 'results/tiny.json')
    const inside = await runCli(['run', '--scenario', 's.json', '--quiet'], { cwd: path.join(dir, 'work') })
    assert.equal(inside.code, 0, inside.stderr)
    assert.ok(fs.existsSync(path.join(dir, 'work', 'results', 'tiny.json')))
    scenario(dir, '/elsewhere/x.json')
    const out = path.join(dir, 'chosen.json')
    const chosen = await runCli(['run', '--scenario', 's.json', '--quiet', '--out', out], { cwd: path.join(dir, 'work') })
    assert.equal(chosen.code, 0, chosen.stderr)
    assert.ok(fs.existsSync(out))
  })
})

describe('one log-bench at a time per results file', () => {
  const slowRun = ['run', '--lib', path.join(ADAPTERS, 'slow.js'), '--transport', 'file', '--events', '100000', '--runs', '1', '--quiet', '--out', 'same.json']
  const quickRun = ['run', '--lib', 'noop', '--transport', 'file', '--events', '10', '--runs', '1', '--quiet', '--out', 'same.json']

  it('a second run with the same --out is refused with one line; the first keeps its file and removes its lock', async () => {
    const dir = tmpDir()
    let first
    const pending = runCli(slowRun, { cwd: dir, onSpawn: (child) => { first = child } })
    await waitFor(() => fs.existsSync(path.join(dir, '.same.json.lock')))
    const second = await runCli(quickRun, { cwd: dir })
    assert.equal(second.code, 2, second.stderr)
    assert.match(second.stderr, /^log-bench: .*same\.json is being written by another log-bench \(pid \d+\): wait for it to finish, or give another --out\n$/)
    first.kill('SIGINT')
    const result = await pending
    assert.equal(result.code, 130, result.stderr)
    assert.equal(readJson(path.join(dir, 'same.json')).runs[0].lib, 'slow')
    assert.deepEqual(fs.readdirSync(dir), ['same.json'])
  })

  it('an empty lock: refused while a moment old (its owner is still writing it), taken over when older', async () => {
    const dir = tmpDir()
    const lock = path.join(dir, '.same.json.lock')
    fs.writeFileSync(lock, '')
    // "A moment old" without depending on how fast log-bench starts: its time is just ahead.
    const soon = new Date(Date.now() + 60_000)
    fs.utimesSync(lock, soon, soon)
    const fresh = await runCli(quickRun, { cwd: dir })
    assert.equal(fresh.code, 2)
    assert.match(fresh.stderr, /is being written by another log-bench that is just starting/)
    const old = new Date(Date.now() - 60_000)
    fs.utimesSync(lock, old, old)
    const next = await runCli(quickRun, { cwd: dir })
    assert.equal(next.code, 0, next.stderr)
    assert.deepEqual(fs.readdirSync(dir), ['same.json'])
  })

  it('a lock left by a log-bench killed with SIGKILL does not block the next run', async () => {
    const dir = tmpDir()
    let first
    const pending = runCli(slowRun, { cwd: dir, onSpawn: (child) => { first = child } })
    await waitFor(() => fs.existsSync(path.join(dir, '.same.json.lock')))
    first.kill('SIGKILL')
    await pending
    assert.ok(fs.existsSync(path.join(dir, '.same.json.lock')))
    // As if it had been killed while saving: its temporary file is its own too.
    fs.writeFileSync(path.join(dir, '.same.json.0123456789abcdef.tmp'), '{"half')
    // The killed run's file holds its first save: replacing it takes --force, as for any results file.
    const next = await runCli([...quickRun, '--force'], { cwd: dir })
    assert.equal(next.code, 0, next.stderr)
    assert.equal(readJson(path.join(dir, 'same.json')).runs[0].lib, 'noop')
    assert.deepEqual(fs.readdirSync(dir), ['same.json'])
  })
})

describe('merge writes a new file: an existing one is replaced only with --force', () => {
  // One whole shard (--shard 1/1) is a valid merge input on its own.
  function shardDir () {
    const dir = workDir()
    const doc = readJson(path.join(dir, 'r.json'))
    doc.env.plan = { id: 'plan-1', kind: 'options', name: null, shard: '1/1', cells: 1 }
    fs.writeFileSync(path.join(dir, 's.json'), JSON.stringify(doc))
    return dir
  }

  it('merge s.json --out m.json twice: the second is refused, --force replaces', async () => {
    const dir = shardDir()
    const first = await runCli(['merge', 's.json', '--out', 'm.json'], { cwd: dir })
    assert.equal(first.code, 0, first.stderr)
    const runs = readJson(path.join(dir, 'm.json')).runs.length
    assert.ok(runs > 0)
    await refused(['merge', 's.json', '--out', 'm.json'], dir, new RegExp(`^log-bench: --out m\\.json already holds results \\(${runs} runs?\\): add --force to replace it, or give another --out\\n$`))
    fs.writeFileSync(path.join(dir, 'm.json'), '{"runs": []}')
    const forced = await runCli(['merge', 's.json', '--out', 'm.json', '--force'], { cwd: dir })
    assert.equal(forced.code, 0, forced.stderr)
    assert.equal(readJson(path.join(dir, 'm.json')).runs.length, runs)
  })

  it('merge without --out: one line saying what to give', async () => {
    const dir = shardDir()
    await refused(['merge', 's.json'], dir, /^log-bench: merge needs --out FILE for the merged results, e\.g\. log-bench merge shard-1\.json shard-2\.json --out merged\.json\n$/)
  })
})
