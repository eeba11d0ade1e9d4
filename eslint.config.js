import neostandard from 'neostandard'

// The style the code is written in (standard: no semicolons, two spaces, a space before a
// function's parentheses), from neostandard's flat config, and imports at the top of a module
// (neostandard has no import plugin: a selector does it). No max-len: neostandard has none, and a
// long line here is mostly one sentence of a message or one row of a table, which wrapping would
// not make easier to read.
export default [
  ...neostandard({
    ignores: ['build/**', 'images/**', 'results/**']
  }),
  {
    rules: {
      // Escaping and checking control characters is what several modules are for (escape.js, the
      // terminal and HTML renderers, the rsyslog and runtime probes, their tests).
      'no-control-regex': 'off',
      'no-restricted-syntax': ['error', { selector: 'Program > :not(ImportDeclaration) ~ ImportDeclaration', message: 'imports go at the top of the module, before any other statement' }]
    }
  }
]
