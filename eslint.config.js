import neostandard from 'neostandard'

// The style the code is written in (standard: no semicolons, two spaces, a space before a
// function's parentheses), from neostandard's flat config, and imports at the top of a module
// (neostandard has no import plugin: a selector does it). Lines are wrapped at 120 characters
// (neostandard sets no limit). A line long only because of one string or template literal (a
// message's sentence, a row of a table) is exempt, as are URLs and regular expressions: breaking a
// sentence across concatenations makes it harder to grep for and to read.
const IMPORTS_FIRST = {
  selector: 'Program > :not(ImportDeclaration) ~ ImportDeclaration',
  message: 'imports go at the top of the module, before any other statement'
}

export default [
  ...neostandard({
    // src/results/validators.js is Ajv's generated code (scripts/results-validators.js).
    ignores: ['build/**', 'images/**', 'results/**', 'src/results/validators.js']
  }),
  {
    rules: {
      // Escaping and checking control characters is what several modules are for (escape.js, the
      // terminal and HTML renderers, the rsyslog and runtime probes, their tests).
      'no-control-regex': 'off',
      '@stylistic/max-len': ['error', {
        code: 120,
        ignoreUrls: true,
        ignoreRegExpLiterals: true,
        ignoreStrings: true,
        ignoreTemplateLiterals: true
      }],
      'no-restricted-syntax': ['error', IMPORTS_FIRST]
    }
  },
  {
    // What log-bench itself runs reads results files, which may hold long arrays: Math.max(...values)
    // passes each value as an argument, and at about 100,000 of them (a long timeseries, a crafted
    // file) overflows the stack.
    files: ['src/**', 'bin/**'],
    rules: {
      'no-restricted-syntax': ['error', IMPORTS_FIRST, {
        selector: 'CallExpression[callee.object.name="Math"][callee.property.name=/^(max|min)$/] > SpreadElement',
        message: 'Math.max/Math.min over a spread array overflows the stack on a long one: use maxOf/minOf (src/stats.js)'
      }]
    }
  }
]
