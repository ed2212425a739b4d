/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/**
 * JSON for a `<script type="application/json">` element: `<` and the JavaScript line separators are escaped,
 * so no value (an answer containing `</script>`, say) can end the element early.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}

/** A number with `digits` decimals, or `-` for null. */
export function fixed(value: number | null | undefined, digits = 3): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '-' : value.toFixed(digits)
}

/** A whole number with thousands separators. */
export function thousands(value: number): string {
  return Math.round(value).toLocaleString('en-US')
}

/** A signed delta (`+0.100`, `-0.050`, `±0.000`). */
export function signed(value: number, digits = 3): string {
  if (Math.abs(value) < 0.5 * 10 ** -digits) return `±${(0).toFixed(digits)}`
  return `${value > 0 ? '+' : ''}${value.toFixed(digits)}`
}

/** `$0.0123`, or `unknown` for a model without a price. */
export function money(costUsd: number | null): string {
  return costUsd === null ? 'unknown' : `$${costUsd.toFixed(4)}`
}
