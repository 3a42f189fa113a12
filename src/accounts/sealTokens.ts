import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { LinkedCredentials } from './credentials.js';
import { SealError } from './sealError.js';

const VERSION = 'v1';
const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]*$/;
const BASE64_KEY = /^[A-Za-z0-9+/]{43}=?$/;

/** What a sealing key must be and how to make one; said wherever a key is refused. */
export const KEY_FORMAT =
	'32 random bytes in base64 (44 characters); make one with `npm run keygen` or `openssl rand -base64 32`';
const KEY_HELP = `TOKEN_ENCRYPTION_KEY must be ${KEY_FORMAT}`;

/**
 * Seals a member's tokens for storage with AES-256-GCM: a fresh random 12-byte IV each time, and the Discord user id
 * as associated data, so a record copied under another member's id does not open.
 *
 * @returns `v1.<iv>.<tag>.<ciphertext>`, each part base64url without padding
 * @throws RangeError when the key is not 32 bytes; TypeError when the user id holds a lone surrogate (see `aad`)
 */
export function sealTokens(tokens: LinkedCredentials, userId: string, key: Buffer): string {
	checkKey(key);
	const iv = randomBytes(IV_BYTES);
	const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
	cipher.setAAD(aad(userId));
	const plaintext = JSON.stringify({ accessToken: tokens.accessToken, sessionToken: tokens.sessionToken });
	const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
	const encoded = [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url'));
	return [VERSION, ...encoded].join('.');
}

/**
 * Opens what `sealTokens` made for the same user id and key.
 *
 * @throws SealError for an unknown format version, a malformed string, or a record that does not authenticate
 *   (another user's, altered, or sealed with another key); its message never holds the key or the tokens
 * @throws RangeError when the key is not 32 bytes; TypeError when the user id holds a lone surrogate
 */
export function openTokens(sealed: string, userId: string, key: Buffer): LinkedCredentials {
	checkKey(key);
	const associated = aad(userId);
	const parts = sealed.split('.');
	const version = parts[0] ?? '';
	if (version !== VERSION && /^v\d+$/.test(version)) {
		throw new SealError(`sealed tokens: unknown format version ${version}`);
	}
	if (version !== VERSION || parts.length !== 4) throw new SealError('sealed tokens: malformed');
	const [iv, tag, ciphertext] = parts.slice(1).map(decodePart);
	if (iv?.length !== IV_BYTES || tag?.length !== TAG_BYTES || ciphertext === undefined) {
		throw new SealError('sealed tokens: malformed');
	}

	let plaintext: string;
	try {
		const decipher = createDecipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
		decipher.setAAD(associated);
		decipher.setAuthTag(tag);
		plaintext = Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
	} catch {
		// The cause is dropped on purpose: OpenSSL's error says nothing useful and the bytes are not to be logged.
		throw new SealError('sealed tokens: authentication failed (wrong key, another user, or altered)');
	}
	return parsePlaintext(plaintext);
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
	if (key.length !== KEY_BYTES) throw new RangeError(`token sealing needs a ${KEY_BYTES}-byte key`);
}

// UTF-8 turns every lone surrogate into U+FFFD, so two different ids would seal alike; refuse rather than conflate.
function aad(userId: string): Buffer {
	if (/\p{Surrogate}/u.test(userId)) throw new TypeError('user id is not well-formed UTF-16');
	return Buffer.from(userId, 'utf8');
}

// Node's base64url decoder skips characters it does not know and ignores spare bits; only the canonical spelling of
// a part is accepted, so one sealed record has exactly one string.
function decodePart(part: string): Buffer | undefined {
	if (!BASE64URL.test(part)) return undefined;
	const bytes = Buffer.from(part, 'base64url');
	return bytes.toString('base64url') === part ? bytes : undefined;
}

function parsePlaintext(plaintext: string): LinkedCredentials {
	let value: unknown;
	try {
		value = JSON.parse(plaintext);
	} catch {
		throw new SealError('sealed tokens: malformed contents');
	}
	if (typeof value === 'object' && value !== null) {
		const { accessToken, sessionToken } = value as Record<string, unknown>;
		if (typeof accessToken === 'string' && typeof sessionToken === 'string') return { accessToken, sessionToken };
	}
	throw new SealError('sealed tokens: malformed contents');
}
