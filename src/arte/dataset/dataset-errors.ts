import { BenchError } from '../../core/errors.ts'

/** The ART-E dataset file given with `--dataset` does not exist or cannot be read. */
export class DatasetNotFoundError extends BenchError {
  /** The path that was asked for. */
  readonly file: string

  constructor(file: string, options: { cause?: unknown } = {}) {
    super('ERR_DATASET_NOT_FOUND', `Cannot read ART-E dataset ${file}`, {
      hint: `Check the path given with --dataset; supported files are .jsonl, .json, .csv and .parquet.`,
      cause: options.cause,
    })
    this.file = file
  }
}

/**
 * The ART-E dataset could not be downloaded: `ERR_DATASET_OFFLINE` when the request
 * itself failed (no network), `ERR_DATASET_DOWNLOAD` when the server answered with an error.
 */
export class DatasetDownloadError extends BenchError {
  /** The URL that failed. */
  readonly url: string

  constructor(code: 'ERR_DATASET_OFFLINE' | 'ERR_DATASET_DOWNLOAD', message: string, options: { url: string; hint: string; cause?: unknown }) {
    super(code, message, { hint: options.hint, cause: options.cause })
    this.url = options.url
  }
}
