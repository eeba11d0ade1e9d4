import fs from 'node:fs'
import path from 'node:path'
import { UsageError } from '../errors.js'
import { writeFilesAtomic } from '../results/write.js'
import { renderPage } from './markdown.js'
import { renderCharts } from './charts.js'

// The `md` export: the results page and every chart it links.
export const resultsReadme = {
  name: 'md',
  describe: 'markdown results page (--out) and its PNG charts (--images)',
  targets: ({ out }) => [out],
  // force: false (report without --force) refuses charts that exist, before any is drawn; --pages
  // regenerates its own charts.
  write (dataset, { out, images, page = {}, force = true, imagesText = images }) {
    const pageDir = path.dirname(path.resolve(out))
    const imageLink = (file) => path.relative(pageDir, path.resolve(images, file)).split(path.sep).join('/')
    const { markdown, charts } = renderPage(dataset, { imageLink, ...page })
    const existing = force ? [] : charts.map((chart) => path.resolve(images, chart.file)).filter((file) => fs.existsSync(file))
    if (existing.length) throw new UsageError(`--images ${imagesText} already holds ${existing.length === 1 ? 'a chart' : `${existing.length} of the ${charts.length} charts`} this report draws (${path.relative(path.resolve(images), existing[0])}): add --force to replace ${existing.length === 1 ? 'it' : 'them'}, or give another --images`)
    // The page and its charts together, or nothing of them (a full disk half-way).
    const pngs = renderCharts(charts, images)
    writeFilesAtomic([...pngs, { file: path.resolve(out), data: markdown }])
    return [path.resolve(out), ...pngs.map((png) => png.file)]
  }
}
