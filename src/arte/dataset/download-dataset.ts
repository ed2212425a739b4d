import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { z } from 'zod'
import { writeFileAtomic, writeJsonAtomic } from '../../core/atomic-write.ts'
import { DatasetDownloadError } from './dataset-errors.ts'

/** The Hugging Face dataset of ART-E questions. */
export const ARTE_DATASET_ID = 'corbt/enron_emails_sample_questions'

/** Default cache folder for downloaded ART-E data, relative to the working directory. */
export const DEFAULT_ARTE_CACHE_DIR = '.tmp/art-e-cache'

/** Number of rows the JSON rows API gives in one request (its maximum). */
export const ROWS_API_LENGTH = 100

/** The datasets-server endpoint that lists the dataset's parquet files. */
export function parquetListUrl(): string {
  return `https://datasets-server.huggingface.co/parquet?dataset=${ARTE_DATASET_ID}`
}

/** Direct URL of the first parquet shard of a split on the `refs/convert/parquet` branch. */
export function parquetShardUrl(split: 'train' | 'test'): string {
  return `https://huggingface.co/datasets/${ARTE_DATASET_ID}/resolve/refs%2Fconvert%2Fparquet/default/${split}/0000.parquet`
}

/** The JSON rows-API URL of the first {@link ROWS_API_LENGTH} rows of a split. */
export function rowsApiUrl(split: 'train' | 'test'): string {
  return `https://datasets-server.huggingface.co/rows?dataset=${ARTE_DATASET_ID}&config=default&split=${split}&offset=0&length=${ROWS_API_LENGTH}`
}

/** Options of {@link ensureArteDataset}. */
export interface EnsureArteDatasetOptions {
  /** Which split to fetch. @default 'test' */
  split?: 'train' | 'test'
  /** Fetch the first 100 rows through the JSON rows API instead of the parquet files. @default false */
  useJson?: boolean
  /** Where downloads are kept and reused. @default '.tmp/art-e-cache' */
  cacheDir?: string
  /** The fetch to use (tests inject one). @default globalThis.fetch */
  fetch?: typeof globalThis.fetch
}

/** Dataset files ready to load with `loadArteDatasetFiles`, and whether they came from the cache. */
export type ArteDatasetFiles = { kind: 'cached'; split: 'train' | 'test'; files: string[] } | { kind: 'downloaded'; split: 'train' | 'test'; files: string[] }

const ParquetListSchema = z.object({
  parquet_files: z.array(z.object({ split: z.string(), url: z.string().url(), filename: z.string().optional() })),
})

const ManifestSchema = z.object({ files: z.array(z.string().min(1)).min(1) })

/**
 * Returns local files of the ART-E dataset: the cached copy in `cacheDir` when there is one,
 * otherwise downloads `corbt/enron_emails_sample_questions` from Hugging Face into `cacheDir`
 * (the split's parquet files, or with `useJson` the first 100 rows as a rows-API JSON file).
 * The split is in the cached file names, so the loader fills `split` in.
 *
 * @throws {DatasetDownloadError} `ERR_DATASET_OFFLINE` when the network is unreachable,
 *   `ERR_DATASET_DOWNLOAD` when Hugging Face answers with an error; the hint says how to
 *   download the file by hand and pass it with `--dataset`.
 */
export async function ensureArteDataset(options: EnsureArteDatasetOptions = {}): Promise<ArteDatasetFiles> {
  const split = options.split ?? 'test'
  const cacheDir = resolve(options.cacheDir ?? DEFAULT_ARTE_CACHE_DIR)
  const fetchImpl = options.fetch ?? globalThis.fetch
  return options.useJson === true ? ensureRowsJson(split, cacheDir, fetchImpl) : ensureParquet(split, cacheDir, fetchImpl)
}

async function ensureRowsJson(split: 'train' | 'test', cacheDir: string, fetchImpl: typeof fetch): Promise<ArteDatasetFiles> {
  const file = join(cacheDir, `rows-${split}-0-${ROWS_API_LENGTH}.json`)
  if (existsSync(file)) return { kind: 'cached', split, files: [file] }
  const url = rowsApiUrl(split)
  const text = new TextDecoder().decode(await download(url, split, fetchImpl))
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch (error) {
    throw downloadError(url, split, `the response is not JSON (${(error as Error).message})`, error)
  }
  if (typeof body !== 'object' || body === null || !Array.isArray((body as { rows?: unknown }).rows)) {
    throw downloadError(url, split, 'the response has no "rows" array')
  }
  // Bytes: a downloaded dataset is source data, kept exactly (the atomic writer redacts text).
  writeFileAtomic(file, Buffer.from(text, 'utf8'))
  return { kind: 'downloaded', split, files: [file] }
}

async function ensureParquet(split: 'train' | 'test', cacheDir: string, fetchImpl: typeof fetch): Promise<ArteDatasetFiles> {
  const manifestFile = join(cacheDir, `parquet-${split}.json`)
  const cached = readManifest(manifestFile, cacheDir)
  if (cached !== undefined) return { kind: 'cached', split, files: cached }

  const urls = await listParquetUrls(split, fetchImpl)
  const names: string[] = []
  for (const [index, url] of urls.entries()) {
    const bytes = await download(url, split, fetchImpl)
    if (new TextDecoder().decode(bytes.subarray(0, 4)) !== 'PAR1') {
      throw downloadError(url, split, 'the response is not a parquet file')
    }
    const name = `${split}-${String(index).padStart(4, '0')}.parquet`
    writeFileAtomic(join(cacheDir, name), bytes)
    names.push(name)
  }
  writeJsonAtomic(manifestFile, { files: names })
  return { kind: 'downloaded', split, files: names.map((name) => join(cacheDir, name)) }
}

/** The cached files named by a manifest, when the manifest is valid and every file exists. */
function readManifest(manifestFile: string, cacheDir: string): string[] | undefined {
  if (!existsSync(manifestFile)) return undefined
  try {
    const manifest = ManifestSchema.parse(JSON.parse(readFileSync(manifestFile, 'utf8')))
    const files = manifest.files.map((name) => join(cacheDir, name))
    return files.every((file) => existsSync(file)) ? files : undefined
  } catch {
    return undefined
  }
}

/** Parquet URLs of a split from the datasets-server listing; the direct shard URL if the listing fails with an HTTP error. */
async function listParquetUrls(split: 'train' | 'test', fetchImpl: typeof fetch): Promise<string[]> {
  const url = parquetListUrl()
  let bytes: Uint8Array
  try {
    bytes = await download(url, split, fetchImpl)
  } catch (error) {
    if (error instanceof DatasetDownloadError && error.code === 'ERR_DATASET_DOWNLOAD') return [parquetShardUrl(split)]
    throw error
  }
  let list: z.infer<typeof ParquetListSchema>
  try {
    list = ParquetListSchema.parse(JSON.parse(new TextDecoder().decode(bytes)))
  } catch (error) {
    throw downloadError(url, split, 'the parquet file listing has an unexpected shape', error)
  }
  const urls = list.parquet_files.filter((file) => file.split === split).map((file) => file.url)
  if (urls.length === 0) throw downloadError(url, split, `the listing has no parquet file for split "${split}"`)
  return urls
}

async function download(url: string, split: 'train' | 'test', fetchImpl: typeof fetch): Promise<Uint8Array> {
  let response: Response
  try {
    response = await fetchImpl(url)
  } catch (error) {
    throw new DatasetDownloadError('ERR_DATASET_OFFLINE', `Cannot download the ART-E dataset: ${url} is unreachable (${(error as Error).message})`, {
      url,
      hint: manualDownloadHint(split),
      cause: error,
    })
  }
  if (!response.ok) throw downloadError(url, split, `HTTP ${response.status} ${response.statusText}`.trim())
  return new Uint8Array(await response.arrayBuffer())
}

function downloadError(url: string, split: 'train' | 'test', reason: string, cause?: unknown): DatasetDownloadError {
  return new DatasetDownloadError('ERR_DATASET_DOWNLOAD', `Cannot download the ART-E dataset from ${url}: ${reason}`, {
    url,
    hint: manualDownloadHint(split),
    cause,
  })
}

/** How to get the dataset by hand: the URL to download and the flag to pass. */
export function manualDownloadHint(split: 'train' | 'test'): string {
  return (
    `Download ${parquetShardUrl(split)} by hand (or the first 100 rows as JSON from ${rowsApiUrl(split)}), ` +
    `save it as ${split}.parquet (or ${split}.json), and pass it with --dataset ${split}.parquet`
  )
}
