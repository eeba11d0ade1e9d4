// Listening on 127.0.0.1 (or the host asked for), with a failure to bind in one line.

export function listen (emitter, start, event, where) {
  return new Promise((resolve, reject) => {
    const onError = (err) => {
      emitter.off(event, onListening)
      reject(listenError(err, where))
    }
    const onListening = () => {
      emitter.off('error', onError)
      resolve()
    }
    emitter.once('error', onError)
    emitter.once(event, onListening)
    start()
  })
}

export function listenError (err, where) {
  if (err.code === 'EADDRINUSE') return new Error(`port ${where} is already in use: choose another port, or 0 for a free one`)
  if (err.code === 'EACCES') return new Error(`no permission to listen on ${where} (ports below 1024 need root)`)
  return new Error(`cannot listen on ${where}: ${err.message}`)
}
