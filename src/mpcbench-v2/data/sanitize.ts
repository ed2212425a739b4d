/**
 * Upstream's `evaluation/sanitizer.py`: before the agent's tools see a world or an instance, every key whose name
 * contains `_tags` (the oracle's machine-readable hints: `policy_tags`, `comm_tags`, `thread_tags`) is removed at
 * any depth, and what is left must hold no key containing `tags` (any case) at all.
 */

/** Upstream's check failed: a key holding `tags` is left after removing the `_tags` keys. Its message is upstream's. */
export class SanitizeError extends Error {
  constructor(key: string) {
    super(`Sanitization failed: key '${key}' contains 'tags'`)
    this.name = 'AssertionError'
  }
}

function removeTags(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(removeTags)
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) if (!key.includes('_tags')) out[key] = removeTags(item)
  return out
}

function checkNoTags(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) checkNoTags(item)
  } else if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) if (key.toLowerCase().includes('tags')) throw new SanitizeError(key)
    for (const item of Object.values(value)) checkNoTags(item)
  }
}

/** A copy of `data` without its `_tags` keys; throws a {@link SanitizeError} as upstream's assertion does. */
export function sanitize<T>(data: T): T {
  const out = removeTags(data)
  checkNoTags(out)
  return out as T
}
