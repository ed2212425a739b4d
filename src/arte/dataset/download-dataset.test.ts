import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DatasetDownloadError } from './dataset-errors.ts'
import { ensureArteDataset, parquetListUrl, parquetShardUrl, rowsApiUrl } from './download-dataset.ts'
import { loadArteDatasetFiles } from './load-dataset.ts'
import { encodeTestParquet } from '../../testing/encode-parquet.ts'

const offlineFetch: typeof fetch = async () => {
  throw new TypeError('fetch failed')
}

/** A fake Hugging Face: answers the listed URLs and records every request. */
function fakeHub(routes: Record<string, () => Response>): { fetch: typeof fetch; requests: string[] } {
  const requests: string[] = []
  return {
    requests,
    fetch: async (input) => {
      const url = String(input)
      requests.push(url)
      const route = routes[url]
      return route === undefined ? new Response('not found', { status: 404, statusText: 'Not Found' }) : route()
    },
  }
}

const ROW = {
  id: 7,
  question: 'Where is the offsite?',
  answer: 'Lisbon',
  message_ids: ['<a@demo>'],
  how_realistic: 0.9,
  inbox_address: 'x@demo.example',
  query_date: '2001-03-02',
}

const PARQUET = encodeTestParquet([
  { name: 'id', type: 'int64', values: [7n] },
  { name: 'question', type: 'string', values: [ROW.question] },
  { name: 'answer', type: 'string', values: [ROW.answer] },
  { name: 'message_ids', type: 'string-list', values: [ROW.message_ids] },
  { name: 'how_realistic', type: 'double', values: [ROW.how_realistic] },
  { name: 'inbox_address', type: 'string', values: [ROW.inbox_address] },
  { name: 'query_date', type: 'string', values: [ROW.query_date] },
])

function cacheDir(): string {
  return mkdtempSync(join(tmpdir(), 'arte-cache-'))
}

describe('ensureArteDataset offline', () => {
  it('fails with ERR_DATASET_OFFLINE and a hint naming the URL and --dataset', async () => {
    const error = await ensureArteDataset({ cacheDir: cacheDir(), fetch: offlineFetch }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DatasetDownloadError)
    const download = error as DatasetDownloadError
    expect(download.code).toBe('ERR_DATASET_OFFLINE')
    expect(download.url).toBe(parquetListUrl())
    expect(download.hint).toContain(parquetShardUrl('test'))
    expect(download.hint).toContain('--dataset')
    expect(download.message).toContain('Fix: ')
    expect(download.cause).toBeInstanceOf(TypeError)
  })

  it('fails the same way for --use-json, naming the rows-API URL', async () => {
    const error = await ensureArteDataset({ useJson: true, split: 'train', cacheDir: cacheDir(), fetch: offlineFetch }).catch((e: unknown) => e)
    expect((error as DatasetDownloadError).code).toBe('ERR_DATASET_OFFLINE')
    expect((error as DatasetDownloadError).url).toBe(rowsApiUrl('train'))
    expect((error as DatasetDownloadError).hint).toContain(rowsApiUrl('train'))
  })
})

describe('ensureArteDataset cache', () => {
  it('reuses a cached rows-API file without any request', async () => {
    const dir = cacheDir()
    const cached = join(dir, 'rows-test-0-100.json')
    writeFileSync(cached, JSON.stringify({ rows: [{ row_idx: 0, row: ROW, truncated_cells: [] }] }))
    const files = await ensureArteDataset({ useJson: true, cacheDir: dir, fetch: offlineFetch })
    expect(files).toEqual({ kind: 'cached', split: 'test', files: [cached] })
    expect(await loadArteDatasetFiles(files.files)).toEqual([{ ...ROW, split: 'test' }])
  })

  it('reuses cached parquet shards listed in the manifest without any request', async () => {
    const dir = cacheDir()
    writeFileSync(join(dir, 'test-0000.parquet'), PARQUET)
    writeFileSync(join(dir, 'parquet-test.json'), JSON.stringify({ files: ['test-0000.parquet'] }))
    const files = await ensureArteDataset({ cacheDir: dir, fetch: offlineFetch })
    expect(files.kind).toBe('cached')
    expect(await loadArteDatasetFiles(files.files)).toEqual([{ ...ROW, split: 'test' }])
  })

  it('does not trust a manifest whose shard is missing', async () => {
    const dir = cacheDir()
    writeFileSync(join(dir, 'parquet-test.json'), JSON.stringify({ files: ['test-0000.parquet'] }))
    await expect(ensureArteDataset({ cacheDir: dir, fetch: offlineFetch })).rejects.toMatchObject({ code: 'ERR_DATASET_OFFLINE' })
  })
})

describe('ensureArteDataset download (fake hub, no network)', () => {
  it("downloads the split's parquet shards from the listing, then reuses them", async () => {
    const dir = join(cacheDir(), 'nested', 'cache')
    const shard = 'https://huggingface.co/datasets/corbt/enron_emails_sample_questions/resolve/refs%2Fconvert%2Fparquet/default/test/0000.parquet'
    const hub = fakeHub({
      [parquetListUrl()]: () =>
        Response.json({
          parquet_files: [
            {
              dataset: 'corbt/enron_emails_sample_questions',
              config: 'default',
              split: 'train',
              url: 'https://example.invalid/train.parquet',
              filename: '0000.parquet',
              size: 1,
            },
            { dataset: 'corbt/enron_emails_sample_questions', config: 'default', split: 'test', url: shard, filename: '0000.parquet', size: PARQUET.length },
          ],
        }),
      [shard]: () => new Response(PARQUET),
    })
    const first = await ensureArteDataset({ cacheDir: dir, fetch: hub.fetch })
    expect(first).toEqual({ kind: 'downloaded', split: 'test', files: [join(dir, 'test-0000.parquet')] })
    expect(hub.requests).toEqual([parquetListUrl(), shard])
    expect(await loadArteDatasetFiles(first.files)).toEqual([{ ...ROW, split: 'test' }])

    const second = await ensureArteDataset({ cacheDir: dir, fetch: hub.fetch })
    expect(second).toEqual({ ...first, kind: 'cached' })
    expect(hub.requests).toHaveLength(2)
  })

  it('falls back to the direct shard URL when the listing answers with an HTTP error', async () => {
    const hub = fakeHub({ [parquetShardUrl('train')]: () => new Response(PARQUET) })
    const files = await ensureArteDataset({ split: 'train', cacheDir: cacheDir(), fetch: hub.fetch })
    expect(hub.requests).toEqual([parquetListUrl(), parquetShardUrl('train')])
    expect((await loadArteDatasetFiles(files.files))[0]?.split).toBe('train')
  })

  it('downloads the rows-API JSON with --use-json', async () => {
    const dir = cacheDir()
    const hub = fakeHub({ [rowsApiUrl('test')]: () => Response.json({ rows: [{ row_idx: 0, row: ROW, truncated_cells: [] }] }) })
    const files = await ensureArteDataset({ useJson: true, cacheDir: dir, fetch: hub.fetch })
    expect(files.kind).toBe('downloaded')
    expect(JSON.parse(readFileSync(join(dir, 'rows-test-0-100.json'), 'utf8')).rows).toHaveLength(1)
  })

  it('fails with ERR_DATASET_DOWNLOAD and writes nothing when a shard is an HTML error page', async () => {
    const dir = cacheDir()
    const hub = fakeHub({
      [parquetListUrl()]: () => Response.json({ parquet_files: [{ split: 'test', url: 'https://example.invalid/x.parquet' }] }),
      'https://example.invalid/x.parquet': () => new Response('<html>rate limited</html>'),
    })
    await expect(ensureArteDataset({ cacheDir: dir, fetch: hub.fetch })).rejects.toMatchObject({ code: 'ERR_DATASET_DOWNLOAD' })
    expect(existsSync(join(dir, 'parquet-test.json'))).toBe(false)
    expect(existsSync(join(dir, 'test-0000.parquet'))).toBe(false)
  })

  it('fails with ERR_DATASET_DOWNLOAD when the rows API answers 429', async () => {
    const hub = fakeHub({ [rowsApiUrl('test')]: () => new Response('slow down', { status: 429, statusText: 'Too Many Requests' }) })
    const error = await ensureArteDataset({ useJson: true, cacheDir: cacheDir(), fetch: hub.fetch }).catch((e: unknown) => e)
    expect((error as DatasetDownloadError).code).toBe('ERR_DATASET_DOWNLOAD')
    expect((error as Error).message).toContain('HTTP 429 Too Many Requests')
  })
})
