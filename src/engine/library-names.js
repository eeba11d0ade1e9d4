// The shipped libraries and baselines by name, and the sets --lib takes: a module of its own, so that
// the option tables (and --help) read them without loading the adapters' loader (src/loggers/index.js).
export const REAL_LIBS = ['log4js', 'winston', 'bunyan', 'pino']
// The most-downloaded Node loggers beyond the seed's four, each on its README default.
export const POPULAR_LIBS = ['consola', 'loglevel', 'roarr', 'signale', 'tslog', 'bole', 'logtape']
export const EVERY_LIB = [...REAL_LIBS, ...POPULAR_LIBS]
export const BASELINES = ['noop', 'raw']
export const BUILTIN_LIBS = [...EVERY_LIB, ...BASELINES]
// Names that stand for several libraries: `all` stays the seed's four, `every` is all of them.
// No prototype, so a --lib entry such as "constructor" is not mistaken for a set.
export const LIB_SETS = Object.assign(Object.create(null), { all: REAL_LIBS, every: EVERY_LIB })

// The shipped adapters that follow their library's older majors (see each adapter's `versions`).
export const VERSIONED_LIBS = REAL_LIBS

// The library every http cell is compared with: the same app without logging.
export const HTTP_BASELINE = 'none'

// Every baseline of every run type: what a ranking of libraries, a scorecard or an anomaly of a
// library leaves out. The one set.
export const BASELINE_LIBS = new Set([...BASELINES, HTTP_BASELINE])
