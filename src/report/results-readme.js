import path from 'node:path'
import { writeFileAtomic } from '../results/write.js'
import { renderPage } from './markdown.js'
import { writeCharts } from './charts.js'

// The `md` export: the results page and every chart it links.
export const resultsReadme = {
  name: 'md',
  describe: 'markdown results page (--out) and its PNG charts (--images)',
  targets: ({ out }) => [out],
  write (dataset, { out, images, page = {} }) {
    const pageDir = path.dirname(path.resolve(out))
    const imageLink = (file) => path.relative(pageDir, path.resolve(images, file)).split(path.sep).join('/')
    const { markdown, charts } = renderPage(dataset, { imageLink, ...page })
    const pngs = writeCharts(charts, images)
    writeFileAtomic(out, markdown)
    return [out, ...pngs]
  }
}
