import assert from 'node:assert/strict'
import { test } from 'node:test'
import * as errors from '../src/errors.js'

test('every error class is named after itself (an Interrupted is not an "Error")', () => {
  const classes = Object.entries(errors).filter(([, value]) => typeof value === 'function' && value.prototype instanceof Error)
  assert.deepEqual(classes.map(([name]) => name).sort(), ['Interrupted', 'LoadFailure', 'RunFailure', 'ServerFailure', 'UsageError'])
  for (const [name, ErrorClass] of classes) {
    const err = new ErrorClass('SIGINT')
    assert.equal(err.name, name)
    assert.match(String(err), new RegExp(`^${name}: `))
  }
})
