import fs from 'node:fs'
import path from 'node:path'
import { UsageError } from '../errors.js'

// Every option check lives here, so each command gives the same one-line answers to bad input.

// An option given twice arrives as an array: say so instead of guessing which one was meant.
function single (value, name) {
  if (Array.isArray(value)) throw new UsageError(`--${name} was given more than once: give it once (a comma list where it takes several values)`)
  return value
}

export function list (value, name) {
  single(value, name)
  const items = String(value ?? '').split(',').map((s) => s.trim()).filter(Boolean)
  if (items.length === 0) throw new UsageError(`--${name} is empty: give one or more values separated by commas`)
  return items
}

export function positiveInt (value, name, { min = 1, max = Number.MAX_SAFE_INTEGER } = {}) {
  single(value, name)
  const text = String(value).trim()
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `an integer >= ${min}` : `an integer from ${min} to ${max}`
    throw new UsageError(`--${name} must be ${range}, got "${value}"`)
  }
  return Number(text)
}

export function positiveIntList (value, name, limits) {
  return [...new Set(list(value, name).map((v) => positiveInt(v, name, limits)))]
}

export function positiveNumber (value, name) {
  single(value, name)
  const n = Number(value)
  if (String(value).trim() === '' || !Number.isFinite(n) || n <= 0) throw new UsageError(`--${name} must be a number > 0, got "${value}"`)
  return n
}

export function nonNegativeNumber (value, name) {
  const n = Number(value)
  if (String(value).trim() === '' || !Number.isFinite(n) || n < 0) throw new UsageError(`--${name} must be a number >= 0, got "${value}"`)
  return n
}

export function oneOf (values, allowed, name) {
  for (const v of values) {
    if (!allowed.includes(v)) throw new UsageError(`unknown ${name} "${v}": use one of ${allowed.join(', ')}`)
  }
  return values
}

// The results file must be creatable before any run starts: a bad --out is bad input, not a crash
// after ten minutes of measuring.
export function writableOutput (file, name = 'out') {
  const resolved = path.resolve(file)
  if (fs.existsSync(resolved) && fs.statSync(resolved).isDirectory()) throw new UsageError(`--${name} ${file} is a directory: give a file path such as ${path.join(file, 'results.json')}`)
  const dir = path.dirname(resolved)
  if (!fs.existsSync(dir)) throw new UsageError(`--${name} ${file}: directory ${dir} does not exist`)
  try {
    fs.accessSync(dir, fs.constants.W_OK)
    if (fs.existsSync(resolved)) fs.accessSync(resolved, fs.constants.W_OK)
  } catch {
    throw new UsageError(`--${name} ${file}: cannot write there (permission denied)`)
  }
  return resolved
}

export function defaultOutput (prefix = 'run') {
  const dir = path.resolve('results')
  fs.mkdirSync(dir, { recursive: true })
  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  return path.join(dir, `${prefix}-${stamp}.json`)
}

// A directory the runs write their temporary files into (--dir): it must exist, be a directory and
// be writable, checked before anything runs.
export function writableDirectory (value, name) {
  const dir = path.resolve(String(value))
  let stat = null
  try { stat = fs.statSync(dir) } catch {}
  if (!stat) throw new UsageError(`--${name} ${value} does not exist: give an existing directory (e.g. /tmp, or a directory on the disk you want to measure)`)
  if (!stat.isDirectory()) throw new UsageError(`--${name} ${value} is not a directory: give a directory the runs may write their files into`)
  try {
    fs.accessSync(dir, fs.constants.W_OK | fs.constants.X_OK)
  } catch {
    throw new UsageError(`--${name} ${value}: cannot write there (permission denied): give a writable directory`)
  }
  return dir
}
