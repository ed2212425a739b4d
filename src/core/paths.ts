import { isAbsolute, relative, resolve, sep } from 'node:path'
import { InvalidFormatError } from './errors.ts'

/**
 * `root` joined with `name` (a file name or relative path built from data), or an {@link InvalidFormatError} when
 * the result would lie outside `root` (`..`, an absolute path): data never chooses a file outside its folder.
 *
 * @param what what `name` is, for the message, e.g. `scenario_id "../x"`
 */
export function resolveInside(root: string, name: string, what: string): string {
  const base = resolve(root)
  const target = resolve(base, name)
  const rel = relative(base, target)
  if (rel === '' || rel.split(sep)[0] === '..' || isAbsolute(rel) || name.includes('\0')) {
    throw new InvalidFormatError(`${what} resolves to ${target}, outside ${base}`, {
      hint: 'Use a plain name (letters, digits, `.`, `_`, `-`) without `/`, `\\` or `..`.',
    })
  }
  return target
}
