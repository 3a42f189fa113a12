import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { SealError } from './sealError.js';

const VERSION = 'v1';
const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]*$/;
const BASE64_KEY = /^[A-Za-z0-9+/]{43}=?$/;

/** What a sealing key must be and how to make one; said wherever a key is refused. */
export const KEY_FORMAT = '32 random bytes in base64 (44 characters); make one with `npm run keygen` or `openssl rand -base64 32`';
const KEY_HELP = `TOKEN_ENCRYPTION_KEY must be ${KEY_FORMAT}`;

/**
 * Seals text for storage with AES-256-GCM under `TOKEN_ENCRYPTION_KEY`: a fresh random 12-byte IV each time, and
 * `associatedData` naming what the text belongs to (a member, a flag), so a record copied under another name does
 * not open. Callers choose associated data that no other kind of record can have.
 *
 * @returns `v1.<iv>.<tag>.<ciphertext>`, each part base64url without padding
 * @throws RangeError when the key is not 32 bytes; TypeError when the associated data holds a lone surrogate
 */
export function seal(plaintext: string, associatedData: string, key: Buffer): string {
	checkKey(key);
	const iv = randomBytes(IV_BYTES);
	const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
	cipher.setAAD(aad(associatedData));
	const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
	const encoded = [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url'));
	return [VERSION, ...encoded].join('.');
}

/**
 * Opens what `seal` made for the same associated data and key.
 *
 * @throws SealError for an unknown format version, a malformed string, or a record that does not authenticate
 *   (another record's, altered, or sealed with another key); its message never holds the key or the text
 * @throws RangeError when the key is not 32 bytes; TypeError when the associated data holds a lone surrogate
 */
export function unseal(sealed: string, associatedData: string, key: Buffer): string {
	checkKey(key);
	const associated = aad(associatedData);
	const parts = sealed.split('.');
	const version = parts[0] ?? '';
	if (version !== VERSION && /^v\d+$/.test(version)) {
		throw new SealError(`sealed record: unknown format version ${version}`);
	}
	if (version !== VERSION || parts.length !== 4) throw new SealError('sealed record: malformed');
	const [iv, tag, ciphertext] = parts.slice(1).map(decodePart);
	if (iv?.length !== IV_BYTES || tag?.length !== TAG_BYTES || ciphertext === undefined) {
		throw new SealError('sealed record: malformed');
	}
	try {
		const decipher = createDecipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
		decipher.setAAD(associated);
		decipher.setAuthTag(tag);
		return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
	} catch {
		// The cause is dropped on purpose: OpenSSL's error says nothing useful and the bytes are not to be logged.
		throw new SealError('sealed record: authentication failed (wrong key, another record, or altered)');
	}
}

/** The sealing keys: `current` seals and opens; `previous`, during a rotation, only opens what it sealed. */
export interface Keyring {
	readonly current: Buffer;
	readonly previous?: Buffer | undefined;
}

/**
 * Opens with the current key, else with the previous one. `stale` says the previous key opened it, so the caller
 * can seal it again with the current one.
 *
 * @throws SealError as `unseal` does, when no key opens it
 */
export function unsealWithKeyring(sealed: string, associatedData: string, keys: Keyring): { plaintext: string; stale: boolean } {
	try {
		return { plaintext: unseal(sealed, associatedData, keys.current), stale: false };
	} catch (error) {
		if (!keys.previous || !(error instanceof SealError)) throw error;
		return { plaintext: unseal(sealed, associatedData, keys.previous), stale: true };
	}
}

/**
 * Reads `TOKEN_ENCRYPTION_KEY`: 32 bytes in standard base64, surrounding whitespace ignored.
 *
 * @throws Error saying what is expected and how to make a key; the message never repeats the value given
 */
export function parseEncryptionKey(base64: string): Buffer {
	const trimmed = base64.trim();
	if (!BASE64_KEY.test(trimmed)) throw new Error(KEY_HELP);
	const key = Buffer.from(trimmed, 'base64');
	if (key.length !== KEY_BYTES) throw new Error(KEY_HELP);
	return key;
}

/** A new key for `TOKEN_ENCRYPTION_KEY`: 32 random bytes in base64. */
export function generateEncryptionKey(): string {
	return randomBytes(KEY_BYTES).toString('base64');
}

function checkKey(key: Buffer): void {
	if (key.length !== KEY_BYTES) throw new RangeError(`sealing needs a ${KEY_BYTES}-byte key`);
}

// UTF-8 turns every lone surrogate into U+FFFD, so two different names would seal alike; refuse rather than conflate.
function aad(associatedData: string): Buffer {
	if (/\p{Surrogate}/u.test(associatedData)) throw new TypeError('associated data is not well-formed UTF-16');
	return Buffer.from(associatedData, 'utf8');
}

// Node's base64url decoder skips characters it does not know and ignores spare bits; only the canonical spelling of
// a part is accepted, so one sealed record has exactly one string.
function decodePart(part: string): Buffer | undefined {
	if (!BASE64URL.test(part)) return undefined;
	const bytes = Buffer.from(part, 'base64url');
	return bytes.toString('base64url') === part ? bytes : undefined;
}
