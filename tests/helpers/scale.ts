/**
 * How big the heavy scenarios run (issue 33: a fast, honest `npm test`). `npm test` runs them at a
 * size that still proves the same thing (concurrency, ordering, exactly-once) in seconds;
 * `npm run test:heavy` (part of `npm run test:reliability`, so of CI) runs them at full size with
 * TEST_SCALE=full. The assertions are the same at both sizes: only the numbers change.
 */
export const FULL_SCALE = process.env.TEST_SCALE === "full";

/** `full` under TEST_SCALE=full, else `quick`. */
export const scaled = <T>(full: T, quick: T): T => (FULL_SCALE ? full : quick);
