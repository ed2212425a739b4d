/** The seed every bootstrap uses unless told otherwise, so a rerun over the same scores prints the same interval. */
export const DEFAULT_SEED = 20_260_311

/** What mulberry32 adds to its state before each draw (see {@link mulberry32}). */
export const MULBERRY32_STEP = 0x6d2b79f5

/**
 * The float in [0, 1) that mulberry32 draws from `state`, its state after adding {@link MULBERRY32_STEP}. A plain
 * function of the state, so a hot loop can keep the state in a local (see {@link seededRandom} for the sequence).
 */
export function mulberry32(state: number): number {
  let t = state
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
}

/** A seeded pseudo-random generator (mulberry32): `next()` gives floats in [0, 1), the same sequence for the same seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + MULBERRY32_STEP) >>> 0
    return mulberry32(state)
  }
}
