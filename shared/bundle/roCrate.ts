/**
 * The RO-Crate metadata (`ro-crate-metadata.json`) of an exported bundle: what makes the archive a
 * .eln file that other electronic lab notebooks (eLabFTW, Kadi4Mat, RSpace, PASTA …) import, beside
 * Tunebook's own `tunebook/bundle.json`. Pure: it only shapes JSON-LD and reads it back.
 *
 * Sources it follows (read when this was written):
 * - The ELN file format, TheELNConsortium/TheELNFileFormat SPECIFICATION.md, its checker
 *   (tests/checks.py: `version` and `sdPublisher` on the descriptor, `name` on every Dataset and File,
 *   `keywords` one comma-separated string) and the eLabFTW, Kadi4Mat and PASTA examples.
 * - RO-Crate 1.1, as crs4/rocrate-validator checks it: the root Dataset needs `name`, `description`,
 *   `license` and `datePublished`; every data entity is reached from `./` through `hasPart`; every
 *   local Dataset and File exists in the payload (so the archive writes a folder entry for each Dataset).
 * - eLabFTW's importer (elabftw/elabftw src/Import/Eln.php), the one most users will meet. It
 *   imports each Dataset listed in `./`'s `hasPart` (only `"@type": "Dataset"` as a plain string) as
 *   one entry: `genre` "experiment" makes an experiment, any other genre a resource; `name` is the
 *   title; the body is `text` followed by `description`, as Markdown when the Dataset's
 *   `encodingFormat` is text/markdown; `temporal` is the entry's date; `keywords` (split on ",")
 *   the tags; `creativeWorkStatus` the status; `mentions` become links between imported entries;
 *   its `hasPart` Files are attached after checking their `sha256` (read at the path in `@id`,
 *   not URL-decoded). It reads `version` on `./` as its own internal version, so `./` has none.
 *   (Its extra fields come only from an `elabftw_metadata` PropertyValue, found by reference only
 *   when `./` claims eLabFTW's internal version ≥ 103, else only inline: neither fits a flattened
 *   RO-Crate of Tunebook's, so results reach eLabFTW as text and as standard PropertyValues.)
 *
 * How Tunebook maps onto that:
 * - Each experiment is a Dataset (its `folder`) of genre "experiment", listed in `./`'s hasPart, so
 *   every ELN imports it as an entry of its own with its captures attached.
 * - Each study is a Dataset of genre "study" whose `hasPart` and `mentions` are its experiments,
 *   which are also listed in `./`'s hasPart: the ELN spec's parent/child rule ("each child Dataset
 *   that is meant to be imported MUST also be listed directly in the hasPart of ./"). eLabFTW imports
 *   the study as a resource (where labs keep projects) whose body states the goal, the requirements
 *   and the steps, linked to each imported experiment; experiments point back with `isPartOf`.
 *   Folding the study into each experiment instead would lose the goal and requirements as a place
 *   of their own, and a study that is not a listed Dataset would not be imported at all.
 * - Descriptions are plain text that also reads as Markdown (Kadi4Mat's descriptions are Markdown;
 *   eLabFTW renders them so given encodingFormat text/markdown). There is deliberately no HTML `text`
 *   beside them: eLabFTW appends `description` after `text`, so both would show everything twice.
 */
import { TunebookError } from '../api';
import { median } from '../stats';
import { formatQuantity } from '../units';
import type {
  BundleExperiment, BundleJson, BundleProfile, BundleRequirement, BundleResultMetric, BundleStudy,
} from './format';
import { BUNDLE_FORMAT, BUNDLE_JSON_PATH } from './format';

/** A file of the archive (everything but ro-crate-metadata.json itself), relative to the root folder. */
export interface CrateFile {
  /** posix, relative to the archive's root folder, e.g. "experiments/02-opcache/ab-c100.txt" */
  path: string;
  size: number;
  /** lower-case hex */
  sha256: string;
  /** media type, e.g. "text/plain" */
  encodingFormat: string;
  /** the name an ELN shows (and eLabFTW gives the attachment) */
  name: string;
}

export interface RoCrateOptions {
  /** the root Dataset's name; by default the study's title (one study) or "Tunebook export" */
  name?: string;
  /** the data's license: a URL (linked) or a sentence. RO-Crate 1.1 requires one on the root. */
  license?: string;
  /** who exports, when known; Tunebook has no user identity, so by default Tunebook is named */
  author?: { name: string; email?: string; identifier?: string };
  /**
   * The folder (ending in "/") standing for a study. By default the parent folder all of the study's
   * experiment folders share, when no other study's experiment sits in it ("opcache/01-baseline/" →
   * "opcache/"), else "studies/NN-title/".
   */
  studyFolder?: (study: BundleStudy, index: number) => string;
}

export const RO_CRATE_CONTEXT = 'https://w3id.org/ro/crate/1.1/context';
export const RO_CRATE_SPEC = 'https://w3id.org/ro/crate/1.1';
export const METADATA_FILE = 'ro-crate-metadata.json';
/** Files the RO-Crate and ELN specs put beside the metadata without listing them as data. */
export const CRATE_COMPANION_FILES: readonly string[] = ['ro-crate-preview.html', 'ro-crate-metadata.json.minisig'];
/** The layout of this crate (the descriptor's `version`, which the ELN checker asks for); bump when it changes. */
export const CRATE_LAYOUT_VERSION = '1.0';

const PUBLISHER_ID = '#publisher';
const SOFTWARE_ID = '#tunebook';
const AUTHOR_ID = '#author';
const DEFAULT_LICENSE = 'No license was chosen when this was exported from Tunebook: ask the owner of the notebook before reusing the data.';

type Ref = { '@id': string };
type Entity = { '@id': string; '@type': string | string[] } & Record<string, unknown>;

const ref = (id: string): Ref => ({ '@id': id });

// ---------------------------------------------------------------------------------------------
// Paths and @ids

/**
 * What is wrong with a path inside the archive (relative to its root folder; a folder may end in
 * "/"), as words that follow `the entry "…"`, or null when it is safe everywhere: on every OS, in
 * every unzip tool, and for eLabFTW, which refuses the same things.
 */
export function archivePathProblem(p: string): string | null {
  if (p === '' || p === '/') return 'has an empty name';
  if (/[\u0000-\u001f\u007f]/.test(p)) return 'has a control character in its name';
  if (p.startsWith('/')) return 'points outside the archive (it is an absolute path)';
  if (/^[A-Za-z]:/.test(p)) return 'points outside the archive (it starts with a drive letter)';
  if (p.includes('\\')) return 'has a backslash in its name, which Windows reads as a folder separator';
  const parts = (p.endsWith('/') ? p.slice(0, -1) : p).split('/');
  if (parts.includes('..')) return 'points outside the archive';
  if (parts.some((s) => s === '' || s === '.')) return 'has an empty or "." folder in its path';
  return null;
}

/**
 * A name made safe as one segment of an archive path: letters, digits, ".", "_" and "-" only, so
 * that its RO-Crate @id needs no %-encoding (eLabFTW reads @ids as raw paths: a file whose @id is
 * encoded is not found) and every OS and zip tool takes it as is. Accents are dropped ("Überlast" →
 * "Uberlast"), runs of anything else become one "-"; at most 80 characters; never empty or dot-only.
 * The File entity's `name` keeps the original, and that is the name ELNs show.
 */
export function archiveSegment(text: string, fallback = 'file'): string {
  const ascii = text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  let s = ascii.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/-{2,}/g, '-').replace(/-*\.-*/g, '.').replace(/^[-.]+|[-.]+$/g, '');
  if (s.length > 80) s = s.slice(0, 80).replace(/[-.]+$/, '');
  return s === '' ? fallback : s;
}

/** The @id of a path: "./" then each segment %-encoded (RO-Crate: @ids are URI references). */
export function crateId(p: string): string {
  const folder = p.endsWith('/');
  const parts = (folder ? p.slice(0, -1) : p).split('/').map(encodeURIComponent);
  return `./${parts.join('/')}${folder ? '/' : ''}`;
}

/** The path of a local @id ("./a%20b/c.txt" → "a b/c.txt"), or null for a web address or "#…". */
function idPath(id: string): string | null {
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(id) || id.startsWith('#') || id.startsWith('//')) return null;
  const raw = id.startsWith('./') ? id.slice(2) : id;
  try {
    return raw.split('/').map(decodeURIComponent).join('/');
  } catch {
    throw invalid(`${METADATA_FILE} has the @id "${shown(id)}", which is not a valid path.`);
  }
}

// ---------------------------------------------------------------------------------------------
// Writing

/** The ro-crate-metadata.json of `bundle`, whose archive holds `files` (see CrateFile). */
export function buildRoCrate(bundle: BundleJson, files: CrateFile[], opts: RoCrateOptions = {}): object {
  const byPath = new Map<string, CrateFile>();
  for (const f of files) {
    const problem = archivePathProblem(f.path);
    if (problem !== null || f.path.endsWith('/')) throw invalid(`The bundle file "${shown(f.path)}" ${problem ?? 'is named like a folder'}.`);
    if (f.path === METADATA_FILE || CRATE_COMPANION_FILES.includes(f.path)) throw invalid(`The bundle file "${f.path}" has a name the RO-Crate reserves.`);
    if (byPath.has(f.path)) throw invalid(`The bundle lists the file "${shown(f.path)}" twice.`);
    if (!/^[0-9a-f]{64}$/.test(f.sha256)) throw invalid(`The bundle file "${shown(f.path)}" has no valid SHA-256 (lower-case hex).`);
    if (!Number.isSafeInteger(f.size) || f.size < 0) throw invalid(`The bundle file "${shown(f.path)}" has no valid size.`);
    byPath.set(f.path, f);
  }
  const bundleFile = byPath.get(BUNDLE_JSON_PATH);
  if (!bundleFile) throw invalid(`The bundle's files do not include ${BUNDLE_JSON_PATH}.`);

  // capture sha256 → its file
  const captureFile = new Map<string, CrateFile>();
  for (const c of bundle.captures) {
    const f = byPath.get(c.path);
    if (!f) throw invalid(`The capture "${shown(c.path)}" has no file among the bundle's files.`);
    if (f.sha256 !== c.sha256) throw invalid(`The capture "${shown(c.path)}" has another SHA-256 than its file.`);
    captureFile.set(c.sha256, f);
  }

  const author = opts.author ? ref(AUTHOR_ID) : ref(PUBLISHER_ID);
  const profiles = new Map(bundle.profiles.map((p) => [p.uid, p]));
  const graph: Entity[] = [];
  const rootParts: Ref[] = [];
  const linked = new Set<string>();

  // Folders: experiments as given, studies as chosen; none may be a file or another's folder.
  const experimentFolders = new Set<string>();
  for (const study of bundle.studies) {
    for (const e of study.experiments) {
      const problem = archivePathProblem(e.folder);
      if (problem !== null || !e.folder.endsWith('/')) throw invalid(`The experiment folder "${shown(e.folder)}" ${problem ?? 'must end in "/"'}.`);
      if (experimentFolders.has(e.folder)) throw invalid(`Two experiments share the folder "${shown(e.folder)}".`);
      experimentFolders.add(e.folder);
    }
  }
  const studyFolders = chooseStudyFolders(bundle.studies, experimentFolders, opts.studyFolder);
  for (const folder of [...experimentFolders, ...studyFolders]) {
    if (byPath.has(folder.slice(0, -1))) throw invalid(`The folder "${shown(folder)}" has the name of a file.`);
  }

  const fileEntity = (f: CrateFile, extra: Record<string, unknown> = {}): Entity => ({
    '@id': crateId(f.path),
    '@type': 'File',
    name: f.name,
    encodingFormat: f.encodingFormat,
    // the ELN spec: "a string with the number of bytes"
    contentSize: String(f.size),
    sha256: f.sha256,
    ...extra,
  });

  bundle.studies.forEach((study, si) => {
    const studyId = crateId(studyFolders[si]!);
    rootParts.push(ref(studyId));
    const experimentIds = study.experiments.map((e) => crateId(e.folder));
    const requirementIds = study.requirements.map((_, i) => `#requirement-${encodeURIComponent(study.uid)}-${i}`);
    graph.push(dropEmpty({
      '@id': studyId,
      '@type': 'Dataset',
      genre: 'study',
      name: study.title || 'Untitled study',
      description: studyDescription(study),
      encodingFormat: 'text/markdown',
      identifier: study.uid,
      dateCreated: dateTime(study.createdAt),
      dateModified: dateTime(study.updatedAt),
      temporal: study.experiments.map((e) => e.date).sort()[0] ?? dateTime(study.createdAt).slice(0, 10),
      author,
      hasPart: experimentIds.map(ref),
      // eLabFTW turns mentions into links from the study to each imported experiment
      mentions: experimentIds.map(ref),
      variableMeasured: requirementIds.map(ref),
    }));
    const reqPropertyIds = propertyIds(study.requirements.map((r) => `requirement.${r.metric}`));
    study.requirements.forEach((r, i) => graph.push(requirementEntity(requirementIds[i]!, reqPropertyIds[i]!, r)));

    for (const e of study.experiments) {
      const expId = crateId(e.folder);
      rootParts.push(ref(expId));
      const parts: Ref[] = [];
      for (const c of e.captures) {
        const f = captureFile.get(c.sha256);
        if (!f) throw invalid(`The experiment "${shown(e.title)}" links a capture (${c.sha256.slice(0, 12)}…) the bundle does not hold.`);
        const id = crateId(f.path);
        if (parts.some((p) => p['@id'] === id)) continue;
        parts.push(ref(id));
        linked.add(f.path);
      }
      const metricIds = e.metrics.map((_, i) => `#result-${encodeURIComponent(e.uid)}-${i}`);
      const metricPropertyIds = propertyIds(e.metrics.map((m) => m.name));
      graph.push(dropEmpty({
        '@id': expId,
        '@type': 'Dataset',
        genre: 'experiment',
        name: e.title || 'Untitled experiment',
        description: experimentDescription(e, e.profile === null ? undefined : profiles.get(e.profile)),
        encodingFormat: 'text/markdown',
        identifier: e.uid,
        dateCreated: dateTime(e.createdAt),
        dateModified: dateTime(e.updatedAt),
        // the day the experiment ran (eLabFTW takes the entry's date from `temporal`)
        temporal: e.date,
        creativeWorkStatus: capitalize(e.status),
        keywords: e.status,
        author,
        isPartOf: ref(studyId),
        hasPart: parts,
        variableMeasured: metricIds.map(ref),
      }));
      e.metrics.forEach((m, i) => graph.push(metricEntity(metricIds[i]!, metricPropertyIds[i]!, m)));
    }
  });

  // The captures, once each however many experiments list them.
  for (const f of files) {
    if (f.path === BUNDLE_JSON_PATH) continue;
    graph.push(fileEntity(f));
    // any file no experiment lists still has to hang off the root (RO-Crate: reachable by hasPart)
    if (!linked.has(f.path)) rootParts.push(ref(crateId(f.path)));
  }
  graph.push(fileEntity(bundleFile, {
    description: `Tunebook's own full-fidelity data of this export (${BUNDLE_FORMAT} version ${bundle.version}), which another Tunebook imports intact.`,
  }));
  rootParts.push(ref(crateId(BUNDLE_JSON_PATH)));

  const exported = dateTime(bundle.exportedAt);
  const license = opts.license ?? DEFAULT_LICENSE;
  const licenseIsUrl = /^https?:\/\/\S+$/.test(license);
  const counts = `${plural(bundle.studies.length, 'study', 'studies')}, ${plural(experimentFolders.size, 'experiment')}, ${plural(bundle.captures.length, 'capture')}`;

  const head: Entity[] = [
    {
      '@id': METADATA_FILE,
      '@type': 'CreativeWork',
      about: ref('./'),
      conformsTo: ref(RO_CRATE_SPEC),
      dateCreated: exported,
      sdPublisher: ref(PUBLISHER_ID),
      version: CRATE_LAYOUT_VERSION,
    },
    dropEmpty({
      '@id': './',
      '@type': 'Dataset',
      name: opts.name ?? (bundle.studies.length === 1 ? bundle.studies[0]!.title || 'Tunebook export' : 'Tunebook export'),
      description: `Exported from Tunebook ${bundle.app.version}, a lab notebook for performance tuning: ${counts}. `
        + 'Each experiment is a folder with the raw output of the tools it ran (kept verbatim); '
        + `${BUNDLE_JSON_PATH} holds everything Tunebook knows about them, for another Tunebook to import.`,
      datePublished: exported,
      license: licenseIsUrl ? ref(license) : license,
      publisher: ref(PUBLISHER_ID),
      hasPart: rootParts,
    }),
    {
      '@id': PUBLISHER_ID,
      '@type': 'Organization',
      name: 'Tunebook',
      description: 'Tunebook, a desktop lab notebook for performance tuning.',
    },
    {
      '@id': SOFTWARE_ID,
      '@type': 'SoftwareApplication',
      name: 'Tunebook',
      version: bundle.app.version,
    },
    {
      '@id': '#export',
      '@type': 'CreateAction',
      name: 'Exported from Tunebook',
      endTime: exported,
      instrument: ref(SOFTWARE_ID),
      result: ref('./'),
    },
  ];
  if (licenseIsUrl) head.push({ '@id': license, '@type': 'CreativeWork', name: license });
  if (opts.author) {
    head.push(dropEmpty({
      '@id': AUTHOR_ID,
      '@type': 'Person',
      name: opts.author.name,
      email: opts.author.email,
      identifier: opts.author.identifier,
    }));
  }
  return { '@context': RO_CRATE_CONTEXT, '@graph': [...head, ...graph] };
}

function chooseStudyFolders(
  studies: BundleStudy[], experimentFolders: Set<string>, choose: RoCrateOptions['studyFolder'],
): string[] {
  const taken = new Set<string>(experimentFolders);
  return studies.map((study, i) => {
    let folder: string;
    if (choose) {
      folder = choose(study, i);
      const problem = archivePathProblem(folder);
      if (problem !== null || !folder.endsWith('/')) throw invalid(`The study folder "${shown(folder)}" ${problem ?? 'must end in "/"'}.`);
      if (taken.has(folder)) throw invalid(`The study folder "${shown(folder)}" is already another study's or experiment's.`);
    } else {
      const parents = new Set(study.experiments.map((e) => parentFolder(e.folder)));
      const [shared] = parents;
      const others = studies.filter((s) => s !== study).flatMap((s) => s.experiments.map((e) => e.folder));
      if (parents.size === 1 && shared && !taken.has(shared) && !others.some((f) => f.startsWith(shared))) {
        folder = shared;
      } else {
        const base = `studies/${String(i + 1).padStart(2, '0')}-${archiveSegment(study.title, 'study')}`;
        folder = `${base}/`;
        for (let n = 2; taken.has(folder); n++) folder = `${base}-${n}/`;
      }
    }
    taken.add(folder);
    return folder;
  });
}

/** "a/b/" → "a/"; a top-level folder has no parent (""). */
function parentFolder(folder: string): string {
  const cut = folder.slice(0, -1).lastIndexOf('/');
  return cut < 0 ? '' : folder.slice(0, cut + 1);
}

/**
 * propertyIDs for a list of names: the name itself, or name.0, name.1 … where it repeats (the ELN
 * spec's "." notation for arrays), as with repeated runs of one metric.
 */
function propertyIds(names: string[]): string[] {
  const total = new Map<string, number>();
  for (const n of names) total.set(n, (total.get(n) ?? 0) + 1);
  const seen = new Map<string, number>();
  return names.map((n) => {
    if (total.get(n) === 1) return n;
    const k = seen.get(n) ?? 0;
    seen.set(n, k + 1);
    return `${n}.${k}`;
  });
}

/** UN/CEFACT common codes for the base units that have an unambiguous one. */
const UNIT_CODES: Record<string, string> = { s: 'SEC', B: 'AD', '%': 'P1' };

function metricEntity(id: string, propertyID: string, m: BundleResultMetric): Entity {
  const notes = [m.primary ? 'primary result' : '', `${m.better} is better`, m.source ? `from ${m.source.captureName} (${m.source.metric})` : '']
    .filter(Boolean).join('; ');
  return dropEmpty({
    '@id': id,
    '@type': 'PropertyValue',
    name: m.name,
    propertyID,
    value: m.value,
    unitText: m.unit,
    unitCode: UNIT_CODES[m.unit],
    description: `${formatQuantity(m.value, m.unit, m.name)}: ${notes}`,
  });
}

function requirementEntity(id: string, propertyID: string, r: BundleRequirement): Entity {
  return dropEmpty({
    '@id': id,
    '@type': 'PropertyValue',
    name: r.label || r.metric,
    propertyID,
    value: r.threshold,
    unitText: r.unit,
    unitCode: UNIT_CODES[r.unit],
    minValue: r.comparator === '>=' || r.comparator === '>' ? r.threshold : undefined,
    maxValue: r.comparator === '<=' || r.comparator === '<' ? r.threshold : undefined,
    description: `Requirement: ${requirementText(r)}`,
  });
}

// ---------------------------------------------------------------------------------------------
// Descriptions: plain text that also reads as Markdown

const COMPARATOR_TEXT: Record<string, string> = { '>=': '≥', '<=': '≤', '>': '>', '<': '<', '=': '=' };

function requirementText(r: BundleRequirement): string {
  const what = `${r.metric} ${COMPARATOR_TEXT[r.comparator] ?? r.comparator} ${formatQuantity(r.threshold, r.unit, r.metric)}`;
  return r.label && r.label !== r.metric ? `${r.label}: ${what}` : what;
}

/** A Markdown code span that holds any text on one line (backticks inside get a longer fence). */
function code(text: string): string {
  const t = text.replace(/\r?\n/g, ' ↵ ');
  if (t === '') return '(empty)';
  const longest = Math.max(0, ...(t.match(/`+/g) ?? []).map((s) => s.length));
  const fence = '`'.repeat(longest + 1);
  const pad = t.startsWith('`') || t.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${t}${pad}${fence}`;
}

function oneLine(text: string): string {
  return text.replace(/\s*\r?\n\s*/g, ' ').trim();
}

function experimentDescription(e: BundleExperiment, profile: BundleProfile | undefined): string {
  const blocks: string[] = [];
  if (e.notes.trim()) blocks.push(e.notes.trim());
  if (e.configChanges.length > 0) {
    blocks.push(['Configuration changes:', ...e.configChanges.map((c) => {
      const where = c.scope.trim() ? `${oneLine(c.scope)} ` : '';
      const why = c.why.trim() ? ` (${oneLine(c.why)})` : '';
      return `- ${where}${code(c.key)}: ${code(c.before)} → ${code(c.after)}${why}`;
    })].join('\n'));
  }
  if (e.metrics.length > 0) {
    blocks.push(['Results:', ...e.metrics.map((m) => {
      const tags = [m.primary ? 'primary' : '', `${m.better} is better`].filter(Boolean).join(', ');
      const from = m.source ? ` from ${oneLine(m.source.captureName)}` : '';
      return `- ${m.name}: ${formatQuantity(m.value, m.unit, m.name)} (${tags})${from}`;
    })].join('\n'));
  }
  if (e.captures.length > 0) {
    blocks.push(['Captures (the tools\' raw output):', ...e.captures.map((c) =>
      `- ${oneLine(c.name)}${c.note.trim() ? `: ${oneLine(c.note)}` : ''}`)].join('\n'));
  }
  if (profile) blocks.push(`Machine: ${profileText(profile)}`);
  blocks.push(`Status: ${e.status}. Date: ${e.date}.`);
  return blocks.join('\n\n');
}

function studyDescription(s: BundleStudy): string {
  const blocks: string[] = [];
  if (s.goal.trim()) blocks.push(`Goal: ${s.goal.trim()}`);
  if (s.requirements.length > 0) blocks.push(['Requirements:', ...s.requirements.map((r) => `- ${requirementText(r)}`)].join('\n'));
  if (s.experiments.length > 0) {
    blocks.push(['Experiments:', ...s.experiments.map((e) => {
      const primary = e.metrics.find((m) => m.primary);
      // with repeated runs, their median, as Tunebook's timeline shows it
      const runs = primary ? e.metrics.filter((m) => m.name === primary.name && m.unit === primary.unit).map((m) => m.value) : [];
      const result = primary
        ? `: ${primary.name} ${formatQuantity(median(runs), primary.unit, primary.name)}${runs.length > 1 ? ` (median of ${runs.length} runs)` : ''}`
        : '';
      return `- ${e.date} ${oneLine(e.title) || 'Untitled experiment'} (${e.status})${result}`;
    })].join('\n'));
  }
  blocks.push(`A Tunebook study of ${plural(s.experiments.length, 'experiment')}.`);
  return blocks.join('\n\n');
}

function profileText(p: BundleProfile): string {
  const cpu = [
    p.cpuModel.trim(),
    p.cores !== null ? `${p.cores} cores` : '',
    p.threads !== null ? `${p.threads} threads` : '',
  ].filter(Boolean).join(', ');
  const disks = p.disks.map((d) => [d.name, d.sizeBytes !== null ? formatQuantity(d.sizeBytes, 'B') : '', d.kind !== 'unknown' ? d.kind : '']
    .filter(Boolean).join(' '));
  return [
    p.name.trim(),
    cpu,
    p.memoryBytes !== null ? `${formatQuantity(p.memoryBytes, 'B')} memory` : '',
    disks.length > 0 ? `disks ${disks.join(', ')}` : '',
    p.os.trim(),
    p.kernel.trim() ? `kernel ${p.kernel.trim()}` : '',
    p.cloud.trim(),
    p.software.trim(),
  ].filter(Boolean).map(oneLine).join('; ');
}

// ---------------------------------------------------------------------------------------------
// Reading

/**
 * The files a crate lists (relative to its root folder) with their SHA-256 and, when stated, size.
 * Throws TunebookError('invalid') when `metadata` is not an RO-Crate, or lists a file without a
 * SHA-256, outside the crate, or twice. Web-based File entities (absolute URLs) are not in the
 * archive and are left out.
 */
export function readCrateFiles(metadata: unknown): Map<string, { sha256: string; size: number | null }> {
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
    throw invalid(`${METADATA_FILE} is not an RO-Crate: it is not a JSON object.`);
  }
  const doc = metadata as Record<string, unknown>;
  const contexts = Array.isArray(doc['@context']) ? doc['@context'] : [doc['@context']];
  if (!contexts.some((c) => typeof c === 'string' && /^https?:\/\/w3id\.org\/ro\/crate\/1\.\d+\/context$/.test(c))) {
    throw invalid(`${METADATA_FILE} is not an RO-Crate: its @context is not RO-Crate's (${RO_CRATE_CONTEXT}).`);
  }
  const graph = doc['@graph'];
  if (!Array.isArray(graph)) throw invalid(`${METADATA_FILE} is not an RO-Crate: it has no @graph list.`);

  const byId = new Map<string, Record<string, unknown>>();
  for (const node of graph) {
    if (typeof node !== 'object' || node === null || Array.isArray(node) || typeof (node as Record<string, unknown>)['@id'] !== 'string') {
      throw invalid(`${METADATA_FILE} is not an RO-Crate: an entry of its @graph has no @id.`);
    }
    const id = (node as Record<string, unknown>)['@id'] as string;
    if (byId.has(id)) throw invalid(`${METADATA_FILE} describes "${shown(id)}" twice.`);
    byId.set(id, node as Record<string, unknown>);
  }

  const descriptor = byId.get(METADATA_FILE) ?? byId.get(`./${METADATA_FILE}`);
  if (!descriptor) throw invalid(`${METADATA_FILE} is not an RO-Crate: it does not describe itself (no "${METADATA_FILE}" entity).`);
  if (!types(descriptor).includes('CreativeWork')) throw invalid(`${METADATA_FILE} is not an RO-Crate: its own entity is not a CreativeWork.`);
  if (refIds(descriptor['about'])[0] !== './') throw invalid(`${METADATA_FILE} is not an RO-Crate: it is not "about" the root folder "./".`);
  if (!refIds(descriptor['conformsTo']).some((id) => /^https?:\/\/w3id\.org\/ro\/crate\/1\.\d+\/?$/.test(id))) {
    throw invalid(`${METADATA_FILE} is not an RO-Crate: it does not say it conforms to RO-Crate (${RO_CRATE_SPEC}).`);
  }
  const root = byId.get('./');
  if (!root || !types(root).includes('Dataset')) throw invalid(`${METADATA_FILE} is not an RO-Crate: its root "./" is not described as a Dataset.`);

  const files = new Map<string, { sha256: string; size: number | null }>();
  for (const [id, node] of byId) {
    if (!types(node).includes('File')) continue;
    const p = idPath(id);
    if (p === null) continue;
    const problem = archivePathProblem(p);
    if (problem !== null || p.endsWith('/')) throw invalid(`${METADATA_FILE} lists the file "${shown(id)}", which ${problem ?? 'is named like a folder'}.`);
    if (p === METADATA_FILE) throw invalid(`${METADATA_FILE} lists itself as a data file.`);
    const sha = node['sha256'];
    if (typeof sha !== 'string' || !/^[0-9a-fA-F]{64}$/.test(sha)) {
      throw invalid(`${METADATA_FILE} lists the file "${shown(p)}" without a SHA-256 checksum.`);
    }
    const size = contentSize(node['contentSize']);
    if (size === undefined) throw invalid(`${METADATA_FILE} gives the file "${shown(p)}" a size that is not a number of bytes.`);
    if (files.has(p)) throw invalid(`${METADATA_FILE} lists the file "${shown(p)}" twice.`);
    files.set(p, { sha256: sha.toLowerCase(), size });
  }
  return files;
}

/** The folders the crate describes as Datasets (relative, ending in "/"), the root excepted. */
export function crateFolders(metadata: unknown): string[] {
  const graph = (metadata as { '@graph'?: unknown } | null)?.['@graph'];
  if (!Array.isArray(graph)) return [];
  const folders: string[] = [];
  for (const node of graph) {
    if (typeof node !== 'object' || node === null) continue;
    const id = (node as Record<string, unknown>)['@id'];
    if (typeof id !== 'string' || id === './' || !types(node as Record<string, unknown>).includes('Dataset')) continue;
    const p = idPath(id);
    if (p !== null && p !== '') folders.push(p.endsWith('/') ? p : `${p}/`);
  }
  return folders;
}

/** contentSize as a number of bytes: null when absent, undefined when not a whole number ≥ 0. */
function contentSize(v: unknown): number | null | undefined {
  if (v === undefined || v === null) return null;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v.trim()) : NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

function types(node: Record<string, unknown>): string[] {
  const t = node['@type'];
  return typeof t === 'string' ? [t] : Array.isArray(t) ? t.filter((x): x is string => typeof x === 'string') : [];
}

function refIds(v: unknown): string[] {
  const list = Array.isArray(v) ? v : [v];
  return list.flatMap((x) => (typeof x === 'object' && x !== null && typeof (x as Ref)['@id'] === 'string' ? [(x as Ref)['@id']] : []));
}

// ---------------------------------------------------------------------------------------------

function invalid(message: string): TunebookError {
  return new TunebookError('invalid', message);
}

/** A name as a message shows it: control characters visible, at most 200 characters. */
export function shown(name: string): string {
  const s = name.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return s.length > 200 ? `${s.slice(0, 200)}…` : s;
}

/** ISO 8601 with a time zone (the ELN schema's date-time); SQLite's "YYYY-MM-DD HH:MM:SS" is UTC. */
function dateTime(s: string): string {
  const t = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(s) ? `${s.replace(' ', 'T')}Z` : s;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? s : new Date(ms).toISOString();
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Leaves out properties with no value: the ELN checker flags empty ones. */
function dropEmpty(e: Entity): Entity {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(e)) {
    if (v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = v;
  }
  return out as Entity;
}
