import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { libraryVersion } from '../loggers/index.js'

const here = fileURLToPath(import.meta.url)

// log4js does not export connectLogger's default format; this is its text, so the line after the
// event marker is the one a default connectLogger writes.
const LOG4JS_DEFAULT_FORMAT = ':remote-addr - - ":method :url HTTP/:http-version" :status :content-length ":referrer" ":user-agent"'

// Each library's own express request logger, built on the logger the adapter made (so the destination
// and configuration are the same as in route mode). Every one is left on its defaults except its
// documented message option, which puts the event marker ("w<worker> <seq>: <payload>") in front of
// its usual message so the receiving end can verify each request line. marker() numbers one event.
export const REQUEST_LOGGERS = {
  log4js: {
    packageName: 'log4js',
    label: 'log4js connectLogger',
    async create (logger, marker) {
      const { default: log4js } = await import('log4js')
      return log4js.connectLogger(logger, { level: 'info', format: (req, res, format) => `${marker()} ${format(LOG4JS_DEFAULT_FORMAT)}` })
    }
  },
  winston: {
    packageName: 'express-winston',
    label: 'express-winston',
    async create (logger, marker) {
      const { default: expressWinston } = await import('express-winston')
      // A msg function without {{...}} is used as it is; the default template would say the same.
      return expressWinston.logger({ winstonInstance: logger, msg: (req) => `${marker()} HTTP ${req.method} ${req.url}` })
    }
  },
  pino: {
    packageName: 'pino-http',
    label: 'pino-http',
    async create (logger, marker) {
      const { default: pinoHttp } = await import('pino-http')
      return pinoHttp({
        logger,
        customSuccessMessage: () => `${marker()} request completed`,
        customErrorMessage: () => `${marker()} request errored`
      })
    }
  }
}

const WITHOUT_REQUEST_LOGGER = {
  bunyan: 'bunyan has no express request logger of its own and no maintained third-party one was found (express-bunyan-logger\'s README says its author no longer maintains it)'
}

// Why a library cannot run in middleware mode, or null when it can.
export function middlewareUnsupportedReason (libName) {
  if (Object.hasOwn(REQUEST_LOGGERS, libName)) return null
  return (Object.hasOwn(WITHOUT_REQUEST_LOGGER, libName) ? WITHOUT_REQUEST_LOGGER[libName] : null) ?? `${libName} has no express request logger`
}

export function requestLoggerInfo (libName) {
  const entry = Object.hasOwn(REQUEST_LOGGERS, libName) ? REQUEST_LOGGERS[libName] : null
  if (!entry) return { middleware: null, middlewareVersion: null }
  return {
    middleware: entry.label,
    middlewareVersion: libraryVersion({ packageName: entry.packageName }, path.dirname(here))
  }
}
