import path from 'node:path'
import { writeFilesAtomic } from '../results/write.js'
import { renderPage } from './markdown.js'
import { renderCharts } from './charts.js'

// The `md` export: the results page and every chart it links.
export const resultsReadme = {
  name: 'md',
  describe: 'markdown results page (--out) and its PNG charts (--images)',
  targets: ({ out }) => [out],
  write (dataset, { out, images, page = {} }) {
    const pageDir = path.dirname(path.resolve(out))
    const imageLink = (file) => path.relative(pageDir, path.resolve(images, file)).split(path.sep).join('/')
    const { markdown, charts } = renderPage(dataset, { imageLink, ...page })
    // The page and its charts together, or nothing of them (a full disk half-way).
    const pngs = renderCharts(charts, images)
    writeFilesAtomic([...pngs, { file: path.resolve(out), data: markdown }])
    return [path.resolve(out), ...pngs.map((png) => png.file)]
  }
}
