/** The seed every bootstrap uses unless told otherwise, so a rerun over the same scores prints the same interval. */
export const DEFAULT_SEED = 20_260_311

/** A seeded pseudo-random generator (mulberry32): `next()` gives floats in [0, 1), the same sequence for the same seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}
