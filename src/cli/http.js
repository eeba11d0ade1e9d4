import { HTTP_OPTIONS } from '../api/option-tables.js'
import { addOptions } from '../api/options.js'

export const command = 'http'
export const describe = 'The cost of logging under HTTP load: an express server logging through each library, driven by autocannon; req/s and latency against the same app without logging'

export function builder (yargs) {
  return addOptions(yargs, HTTP_OPTIONS)
    .example('$0 http --lib none,pino,winston --transport file --duration 10 --connections 10', '')
    .example('$0 http --lib all --logs-per-request 0,5,20 --size 5,20,100 --cpus 1 --out results/http.json', '')
    .example('$0 http --lib pino,winston --middleware', 'each library\'s own express request logger')
    .example('$0 http --lib pino,bunyan --transport udp --syslog rsyslog', 'the server logs over syslog to a real rsyslogd')
}

// The command's work is imported when it runs, so that --help and --version start at once.
export async function handler (argv) {
  const [{ prepareHttp }, { runInTerminal, printFinished }] = await Promise.all([import('../api/http.js'), import('./session.js')])
  const prepared = await prepareHttp(argv, { defaultOut: true, command: ['log-bench', ...process.argv.slice(2)].join(' ') })
  const doc = await runInTerminal(prepared, { quiet: argv.quiet })
  printFinished(doc, prepared, { json: argv.json })
}
