import { glanceSection } from './run/glance.js'
import { versionsSection } from './versions-section.js'
import { costsSection } from './run/costs-section.js'
import { profilesSection } from './run/profiles-section.js'
import { httpSection } from './http/section.js'
import { runSection } from './run/section.js'
import { thenAndNowSection } from './run/then-and-now.js'
import { httpGlanceSection } from './http/glance.js'
import { workloadsSection } from './run/workloads-section.js'
import { destinationsSection } from './run/destinations-section.js'
import { durabilitySection } from './run/durability-section.js'
import { latencySection } from './run/latency-section.js'
import { burstsSection } from './run/bursts-section.js'

// The report's sections, in page order. A section claims run types and renders them:
//   { name, types: ['run'], render(dataset, ctx) → { blocks, charts: [{ file, width, height, config }] } }
// blocks: tables, headings, paragraphs as values and markdown strings for the page alone (see table.js);
// the page (markdown.js) and the terminal (terminal.js) draw them.
// ctx: { image(file, alt) → markdown image link, conditions (machine in a few words), reference
// (a page's reference data, see then-and-now.js, or null) }. `placement: 'top'` puts a section
// before the Hardware and Software table. `howToRead` (markdown lines) explains the section's
// numbers under "How to read the numbers" on the pages that show it. `lead(dataset, ctx, summary)`
// (optional) → { blocks, charts, after } | null opens the page in the Summary's place where the
// section has something to lead with (markdown.js takes the first); it names no section itself.
// To report a new kind of run, write a section module and add it here with one import line.
// versions comes first: a page of several versions or runtimes is about them (others show nothing of it).
export const SECTIONS = [
  versionsSection,
  durabilitySection,
  latencySection,
  glanceSection,
  httpGlanceSection,
  runSection,
  costsSection,
  profilesSection,
  workloadsSection,
  destinationsSection,
  burstsSection,
  thenAndNowSection,
  httpSection
]
