#!/usr/bin/env node
import { register } from 'node:module'
import { FEW_OPEN_FILES, openFilesLimit } from '../src/limits.js'

// The command line (src/cli/main.js). Under a low limit on open files (ulimit -n 64) its modules are
// read a few at a time (src/cli/load-hooks.js), or loading them fails with EMFILE.
if ((openFilesLimit() ?? Infinity) < FEW_OPEN_FILES) register('../src/cli/load-hooks.js', import.meta.url)
await import('../src/cli/main.js')
