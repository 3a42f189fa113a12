import { randomFillSync } from 'node:crypto';

/** Drawn at once from the system's generator, then handed out a few bytes at a time. */
const POOL_BYTES = 4096;

const pool = Buffer.allocUnsafeSlow(POOL_BYTES);
let used = POOL_BYTES;

/**
 * `crypto.randomBytes`, drawn from a pool filled by the same generator 4 KiB at a time (as `crypto.randomUUID`
 * does): each ask takes an IV and an id, and one call to the generator costs about as much as the whole sealing
 * when the process is not already busy. Every byte is handed out once; the copy returned is the caller's.
 */
export function randomBytesPooled(size: number): Buffer {
	if (!Number.isInteger(size) || size < 0 || size > POOL_BYTES) throw new RangeError(`size must be an integer from 0 to ${POOL_BYTES}`);
	if (used + size > POOL_BYTES) {
		randomFillSync(pool);
		used = 0;
	}
	const bytes = Buffer.from(pool.subarray(used, used + size));
	used += size;
	return bytes;
}
