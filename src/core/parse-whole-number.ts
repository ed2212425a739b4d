/**
 * The one reader of whole numbers written as text (flags, environment variables): digits with an optional minus
 * sign, surrounding spaces allowed; `1e3`, `2.0`, `0x10` and `''` are not whole numbers here. `undefined` when `text`
 * is not one, or is below `min`. Without zod, so that a CLI command reading a number flag does not load it.
 */
export function parseWholeNumber(text: string, min = Number.NEGATIVE_INFINITY): number | undefined {
  const trimmed = text.trim()
  if (!/^-?\d+$/.test(trimmed)) return undefined
  const number = Number(trimmed)
  return Number.isSafeInteger(number) && number >= min ? number : undefined
}
