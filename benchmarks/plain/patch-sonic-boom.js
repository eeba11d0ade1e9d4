// A copy of the installed sonic-boom with one change, for measuring it beside the release: write()
// keeps a running byte count of its last pending chunk (this._lastLen) instead of measuring the whole
// chunk with Buffer.byteLength on every call. The count adds each string's own byte length, so it
// is right for multi-byte text. Nothing of sonic-boom is committed: the copy is made from
// node_modules/sonic-boom each time, and refused (exit 2) where that version's write() is not the one
// this change is for.
//   node benchmarks/plain/patch-sonic-boom.js DIR    (DIR must not exist; it becomes the patched package)
import fs from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

// The line that measures the chunk, and where the chunk grows: replaced with the running count.
const CHANGES = [
  ['    Buffer.byteLength(bufs[bufs.length - 1]) + dataLen > this.maxWrite\n  ) {\n    bufs.push(data)\n  } else {\n    bufs[bufs.length - 1] += data\n  }',
    '    this._lastLen + dataLen > this.maxWrite\n  ) {\n    bufs.push(data)\n    this._lastLen = dataLen\n  } else {\n    bufs[bufs.length - 1] += data\n    this._lastLen += dataLen\n  }']
]

export function installedSonicBoom () {
  return path.dirname(require.resolve('sonic-boom/package.json'))
}

// Copies the installed sonic-boom to dest and applies the change; returns { dir, version }.
export function patchSonicBoom (dest) {
  const from = installedSonicBoom()
  const { version } = JSON.parse(fs.readFileSync(path.join(from, 'package.json'), 'utf8'))
  let source = fs.readFileSync(path.join(from, 'index.js'), 'utf8')
  for (const [before, after] of CHANGES) {
    if (source.split(before).length !== 2) throw new Error(`sonic-boom ${version}'s write() is not the one this change is for (its chunk test was not found once in index.js)`)
    source = source.replace(before, after)
  }
  fs.cpSync(from, dest, { recursive: true, errorOnExist: true, force: false, filter: (file) => !file.slice(from.length).split(path.sep).includes('node_modules') })
  fs.writeFileSync(path.join(dest, 'index.js'), source)
  return { dir: dest, version }
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const dest = process.argv[2]
  if (!dest || process.argv.length > 3 || fs.existsSync(dest)) {
    process.stderr.write('usage: node benchmarks/plain/patch-sonic-boom.js DIR (a folder that does not exist yet)\n')
    process.exit(2)
  }
  try {
    const { version } = patchSonicBoom(path.resolve(dest))
    process.stdout.write(`${dest}: sonic-boom ${version} with a running byte count of its last chunk\n`)
  } catch (err) {
    process.stderr.write(`${err.message}\n`)
    process.exit(2)
  }
}
