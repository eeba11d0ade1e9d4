import fs from 'node:fs'

// Whether `file` is a regular file this process may execute (a PATH lookup's test).
export function isExecutable (file) {
  try {
    fs.accessSync(file, fs.constants.X_OK)
    return fs.statSync(file).isFile()
  } catch {
    return false
  }
}
