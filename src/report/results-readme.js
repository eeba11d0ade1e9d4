import fs from 'node:fs'
import path from 'node:path'
import { UsageError } from '../errors.js'
import { renderPage } from './markdown.js'
import { renderCharts } from '../draw/charts.js'
import { toCsv } from './csv.js'

// The `md` export: the results page and every chart it links.
export const resultsReadme = {
  name: 'md',
  targets: ({ out }) => [out],
  // page.details: a directory for the page's detail pages (report --pages); page.sources: the
  // results files it is made from and page.csv a CSV of its runs to write beside it, both linked
  // from its Reproduce block.
  // force: false (report without --force) refuses charts that exist, before any is drawn; --pages
  // regenerates its own charts.
  files (dataset, { out, images, page = {}, force = true, imagesText = images }) {
    const pageDir = path.dirname(path.resolve(out))
    const linkFrom = (dir) => (file) => path.relative(dir, path.resolve(file)).split(path.sep).join('/')
    const imageLink = (file) => linkFrom(pageDir)(path.resolve(images, file))
    const { details: detailsDir, sources, csv, ...rest } = page
    const details = detailsDir
      ? { imageLink: (file) => linkFrom(path.resolve(detailsDir))(path.resolve(images, file)), link: (slug) => linkFrom(pageDir)(path.join(detailsDir, `${slug}.md`)), back: linkFrom(path.resolve(detailsDir))(out) }
      : null
    const links = sources
      ? {
          json: sources.map((file) => ({ path: file, link: linkFrom(pageDir)(file) })),
          csv: csv ? { path: csv, link: linkFrom(pageDir)(csv) } : null
        }
      : null
    const rendered = renderPage(dataset, { imageLink, name: path.basename(out, '.md'), details, links, ...rest })
    const existing = force
      ? []
      : rendered.charts.map((chart) => path.resolve(images, chart.file)).filter((file) => fs.existsSync(file))
    if (existing.length) throw new UsageError(`--images ${imagesText} already holds ${existing.length === 1 ? 'a chart' : `${existing.length} of the ${rendered.charts.length} charts`} this report draws (${path.relative(path.resolve(images), existing[0])}): add --force to replace ${existing.length === 1 ? 'it' : 'them'}, or give another --images`)
    // The charts first: renamed in this order, a page never links to a chart not yet in place.
    const pngs = renderCharts(rendered.charts, images)
    const pages = [{ file: path.resolve(out), data: rendered.markdown }, ...rendered.details.map((d) => ({ file: path.resolve(detailsDir, `${d.slug}.md`), data: d.markdown }))]
    const table = csv ? [{ file: path.resolve(csv), data: toCsv(dataset, { series: false }) }] : []
    return [...pngs, ...table, ...pages]
  }
}
