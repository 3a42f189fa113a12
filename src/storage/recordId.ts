import { randomBytes } from 'node:crypto';

// 32 characters, so each random byte's low five bits pick one evenly; no l, o, 0 or 1, which read alike when a
// moderator copies an id by hand.
const ID_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

/** A random id of `length` characters (5 bits each) that says nothing about any other id. */
export function randomId(length: number): string {
	let id = '';
	for (const byte of randomBytes(length)) id += ID_ALPHABET[byte & 31];
	return id;
}
