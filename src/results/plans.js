// How two plans' options differ, in the file's terms first: ["events 2000 vs 1000", "run[0].cpus 1 vs 1,8"].
// --resume (src/cli/run.js) and merge say what makes a results file another plan's with it.
export function optionDifferences (theirs, ours, at = '') {
  const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)
  const show = (v) => (v == null ? 'none' : Array.isArray(v) ? v.join(',') : isObject(v) ? JSON.stringify(v) : String(v))
  const differences = []
  for (const key of new Set([...Object.keys(theirs ?? {}), ...Object.keys(ours ?? {})])) {
    const [a, b] = [theirs?.[key], ours?.[key]]
    if (JSON.stringify(a) === JSON.stringify(b)) continue
    const name = Array.isArray(theirs ?? ours) ? `${at}[${key}]` : at ? `${at}.${key}` : key
    const nested = (isObject(a) && isObject(b)) || (Array.isArray(a) && Array.isArray(b) && [...a, ...b].some(isObject))
    if (nested) differences.push(...optionDifferences(a, b, name))
    else differences.push(`${name} ${show(a)} vs ${show(b)}`)
  }
  return differences
}
