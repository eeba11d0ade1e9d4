import { prepareHttp } from '../api/http.js'
import { HTTP_OPTIONS } from '../api/option-tables.js'
import { addOptions } from '../api/options.js'
import { terminalExport } from '../report/terminal.js'
import { finishNotes, runInTerminal } from './session.js'

export const command = 'http'
export const describe = 'The cost of logging under HTTP load: an express server logging through each library, driven by autocannon; req/s and latency against the same app without logging'

export function builder (yargs) {
  return addOptions(yargs, HTTP_OPTIONS)
    .example('$0 http --lib none,pino,winston --transport file --duration 10 --connections 10', '')
    .example('$0 http --lib all --logs-per-request 0,5,20 --size 5,20,100 --cpus 1 --out results/http.json', '')
    .example('$0 http --lib pino,winston --middleware', 'each library\'s own express request logger')
    .example('$0 http --lib pino,bunyan --transport udp --syslog rsyslog', 'the server logs over syslog to a real rsyslogd')
}

export async function handler (argv) {
  const prepared = await prepareHttp(argv, { defaultOut: true, command: ['log-bench', ...process.argv.slice(2)].join(' ') })
  const doc = await runInTerminal(prepared, { quiet: argv.quiet })
  terminalExport.write(doc)
  for (const note of prepared.externalNotes) process.stdout.write(note)
  process.stdout.write(`\nresults: ${prepared.out}${finishNotes(doc)}\n`)
}
