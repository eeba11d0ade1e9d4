// Types of log-bench's API (src/api/index.js); docs/api.md says what each does. The results
// document is defined by schema/results.schema.json; the types below name its main fields.
import type { EventEmitter } from 'node:events'

/** A list option: an array, or a comma string as on the command line. */
type List<T = string> = T[] | string

/** The options of `log-bench run`, under their scenario keys (or camelCase names); see docs/cli.md. */
export interface RunOptions {
  libs?: List; lib?: List
  runtimes?: List; runtime?: List
  cache?: string
  workloads?: List; workload?: List
  transports?: List; transport?: List
  cpus?: List<number | string>
  events?: number | string
  rate?: number | string
  runs?: number | string
  sizes?: List<number | string>; size?: List<number | string>
  timeout?: number | string
  maxOldSpaceSize?: number | string
  pipeBytes?: number | string
  syslog?: 'embedded' | 'rsyslog'
  syslogHost?: string
  syslogPort?: number | string
  syslogOutput?: string
  dir?: string
  scenario?: string
  /** Results file, rewritten after every run; without it the document is kept in memory only. */
  out?: string
  force?: boolean
  resume?: boolean
  shard?: string
  order?: 'interleaved' | 'blocked'
  seed?: number | string
  baseline?: string
  alpha?: number | string
  noise?: number | string
  retryTimeouts?: boolean
  /** Stops the current run (its workers end) and rejects with Interrupted. */
  signal?: AbortSignal
}

/** The options of `log-bench http`, under their scenario keys (or camelCase names). */
export interface HttpOptions {
  libs?: List; lib?: List
  runtimes?: List; runtime?: List
  cache?: string
  transport?: string
  cpus?: List<number | string>
  logsPerRequest?: List<number | string>
  sizes?: List<number | string>; size?: List<number | string>
  middleware?: boolean
  duration?: number | string
  warmup?: number | string
  connections?: number | string
  pipelining?: number | string
  runs?: number | string
  serverCpus?: string
  loadCpus?: string
  port?: number | string
  syslog?: 'embedded' | 'rsyslog'
  syslogHost?: string
  syslogPort?: number | string
  syslogOutput?: string
  out?: string
  force?: boolean
  order?: 'interleaved' | 'blocked'
  seed?: number | string
  signal?: AbortSignal
}

/** One run of a cell: the fields of $defs.runRecord (or httpRecord) in schema/results.schema.json. */
export interface RunRecord {
  type?: 'run' | 'http'
  lib: string
  libVersion?: string | null
  transport: string
  cpus: number
  run: number
  ok: boolean
  status: 'ok' | 'failed' | 'skipped' | 'unsupported' | 'interrupted'
  error: string | null
  [field: string]: unknown
}

/** The results document: schema/results.schema.json. */
export interface ResultsDocument {
  schema: number
  tool: 'log-bench'
  kind: 'results'
  complete: boolean
  interrupted: boolean
  env: Record<string, unknown> & { node: string, command: string, time: string }
  runs: RunRecord[]
  summary: Array<Record<string, unknown>>
}

export interface Progress {
  start: [{ runs: number }]
  'run-start': [{ label: string, run: number, runs: number }]
  live: [{ elapsedMs: number, arrived: number | null, bytes: number | null, rssBytes: number | null }]
  run: [{ label: string, run: number, detail: string, record: RunRecord }]
  skip: [{ label: string, runs: number, reason: string }]
  note: [string]
  warning: [string]
  comparison: [Comparison]
  done: [ResultsDocument]
}

/** What run() and http() return: an emitter of progress that is also a promise of the document. */
export interface Job extends EventEmitter<Progress>, PromiseLike<ResultsDocument> {
  catch<T = never> (onRejected?: (reason: unknown) => T | PromiseLike<T>): Promise<ResultsDocument | T>
  finally (onFinally?: () => void): Promise<ResultsDocument>
}

export interface ComparisonRow {
  type: string
  cell: string
  measure: string
  baseline: string
  baselineMedian: number | null
  median: number | null
  ratio: number | null
  ciLow: number | null
  ciHigh: number | null
  coverage: number | null
  p: number | null
  verdict: 'faster' | 'slower' | 'same' | 'unclear' | null
  n: number
  nBaseline: number
  [field: string]: unknown
}

export interface Comparison {
  mode: 'baseline' | 'files'
  baseline: string
  alpha: number
  noise: number
  comparisons: ComparisonRow[]
  notCompared: string[]
  onlyBase?: string[]
  onlyNew?: string[]
}

export interface CompareOptions {
  baseline?: string
  alpha?: number | string
  noise?: number | string
}

export interface ReportOptions {
  format?: List<'md' | 'csv' | 'terminal'>
  out?: string
  images?: string
  pages?: string
}

type Results = ResultsDocument | string

export function run (options?: RunOptions): Job
export function http (options?: HttpOptions): Job
export function compare (results: Results, options: CompareOptions & { baseline: string }): Promise<Comparison>
export function compare (base: Results, next: Results, options?: CompareOptions): Promise<Comparison>
export function report (results: Results | Results[], options?: ReportOptions): Promise<{ files: string[], terminal: string | null }>

/** Bad input: the message is the command line's one line; `hint`, where set, its second (how to find out what would be right). */
export class UsageError extends Error {
  hint: string | null
}
/** The signal stopped the session; `document` holds the runs so far (the current one as interrupted). */
export class Interrupted extends Error {
  signal: string
  document?: ResultsDocument
}
/** The path of the shipped results schema. */
export const RESULTS_SCHEMA_FILE: string
