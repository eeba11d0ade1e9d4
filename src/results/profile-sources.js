import { parse } from 'acorn'

// Inlined functions, recovered from the script's own source. When V8 inlines a small hot function
// into its caller, the sampled stack names only the caller; but each sample's line (the profile's
// positionTicks, per node) still points into the inlined function's body. So a line is given to the
// innermost function of the caller's script whose source range holds it: the script's source parsed
// with acorn (the functions' ranges, never a regex). It cannot where there is no source to read (Node's
// own modules, eval, wasm), where the source no longer matches what ran (no function starts on the
// frame's line), or where a function from another script was inlined (its lines are counted in the
// caller's script, where they name no function or the wrong one: left to the caller when outside
// every function). A line holding code of two functions goes to the innermost.

// The functions of one script: [{ name, startLine, endLine, depth }], or null where it does not parse.
export function functionRanges (source) {
  let ast = null
  for (const sourceType of ['module', 'script']) {
    try {
      ast = parse(source, { ecmaVersion: 'latest', sourceType, locations: true, allowHashBang: true, allowReturnOutsideFunction: sourceType === 'script', allowAwaitOutsideFunction: true })
      break
    } catch {}
  }
  if (!ast) return null
  const ranges = []
  const visit = (node, parent, depth) => {
    if (!node || typeof node.type !== 'string') return
    const isFunction = /^(FunctionDeclaration|FunctionExpression|ArrowFunctionExpression)$/.test(node.type)
    if (isFunction) {
      ranges.push({ name: nameOf(node, parent), startLine: node.loc.start.line, endLine: node.loc.end.line, depth })
    }
    for (const key of Object.keys(node)) {
      if (key === 'loc') continue
      const value = node[key]
      const children = Array.isArray(value) ? value : [value]
      for (const child of children) if (child && typeof child === 'object') visit(child, node, depth + (isFunction ? 1 : 0))
    }
  }
  visit(ast, null, 0)
  return ranges
}

// The name V8 would show, near enough: its own, else the variable, property or method it is bound to.
function nameOf (node, parent) {
  if (node.id?.name) return node.id.name
  let key = null
  if (parent?.type === 'VariableDeclarator') key = parent.id
  else if (/^(Property|MethodDefinition|PropertyDefinition)$/.test(parent?.type)) key = parent.key
  else if (parent?.type === 'AssignmentExpression') key = parent.left.property ?? parent.left
  return key?.name ?? (typeof key?.value === 'string' ? key.value : '(anonymous)')
}

// The innermost function holding line (1-based), or null.
export function innermostAt (ranges, line) {
  let best = null
  for (const range of ranges) {
    if (range.startLine <= line && line <= range.endLine && (!best || range.depth > best.depth)) best = range
  }
  return best
}

// A sampled frame's self time split by the function each of its lines lies in: [{ name, line,
// inlinedInto, us }], or null where nothing is recovered (no ticks, no source, no function starting on
// the frame's line). us: the frame's self time in proportion to its lines' ticks.
export function splitByLine (frame, positionTicks, us, ranges) {
  if (!ranges || !positionTicks?.length) return null
  const own = ranges.filter((r) => r.startLine === frame.lineNumber + 1).sort((a, b) => b.depth - a.depth)[0]
  if (!own) return null
  const ticks = positionTicks.reduce((sum, t) => sum + t.ticks, 0)
  if (!(ticks > 0)) return null
  const parts = new Map()
  for (const { line, ticks: n } of positionTicks) {
    const range = innermostAt(ranges, line)
    const inlined = range && range !== own ? range : null
    const key = inlined ? `${inlined.name}\u0000${inlined.startLine}` : ''
    const part = parts.get(key) ?? (inlined ? { name: inlined.name, line: inlined.startLine, inlinedInto: frame.functionName || '(anonymous)', us: 0 } : { name: null, line: null, inlinedInto: null, us: 0 })
    part.us += (us * n) / ticks
    parts.set(key, part)
  }
  return parts.size === 1 && parts.has('') ? null : [...parts.values()]
}
