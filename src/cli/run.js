import { RUN_OPTIONS } from '../api/option-tables.js'
import { addOptions, optionNamed } from '../api/options.js'

// The default matrix's figures, as the option table gives them.
const RUNS = optionNamed(RUN_OPTIONS, 'runs').default
const EVENTS = Number(optionNamed(RUN_OPTIONS, 'events').default).toLocaleString('en-US')

export const command = 'run'
export const describe = 'Time loggers: fork workers that each log --events events, wait until every byte landed, verify every event'

export function builder (yargs) {
  return addOptions(yargs, RUN_OPTIONS)
    .example('$0 run', `the default matrix: log4js, winston, bunyan, pino and raw to the console, 1 worker, ${EVENTS} events, ${RUNS} runs`)
    .example('$0 run --lib winston --transport file --cpus 8', '')
    .example('$0 run --lib all,raw --workload object,child,disabled --transport console,file', 'structured logging, child loggers and disabled calls')
    .example('$0 run --lib pino,pino:sync,pino:transport --transport file', 'pino\'s default against its documented variants')
    .example('$0 run --lib all,raw --transport udp,tcp --syslog rsyslog', 'syslog through a real rsyslogd')
    .example('$0 run --lib pino@9,pino@10,winston@2,winston@3 --transport console,file', 'published versions side by side')
    .example('$0 run --runtime node@22,bun --lib pino,raw', 'the workers under Node 22 and under Bun')
    .example('$0 run --lib pino --transport file --rate 20000 --events 40000', '20,000 events a second for 2 s: response and call times and the event-loop delay under a steady load')
    .example('$0 run --lib pino,./my-pino.js --transport file --events 20000 --measure instructions --baseline pino', 'instructions per event under valgrind: differences of 1-2% read on a shared machine')
    .example('$0 run --lib all --transport console,file --cpus 1,8 --events 100000 --out results/mine.json', '')
    .example('$0 run --scenario quick', 'a shipped scenario (see list); add --resume after an interruption, --shard 1/2 to split it')
}

// The command's work is imported when it runs, so that --help and --version start at once.
export async function handler (argv) {
  const [{ prepareRun }, { runInTerminal, printFinished }] = await Promise.all([import('../api/run.js'), import('./session.js')])
  const prepared = await prepareRun(argv, { defaultOut: true, command: ['log-bench', ...process.argv.slice(2)].join(' ') })
  const doc = await runInTerminal(prepared, { quiet: argv.quiet, resumeHint: ' (continue with --resume)' })
  printFinished(doc, prepared, { json: argv.json })
}
