import type { LinkedCredentials } from './credentials.js';
import { SealError } from '../crypto/sealError.js';
import { seal, unseal, unsealWithKeyring, type Keyring } from '../crypto/sealing.js';

/**
 * Seals a member's tokens for storage (see `seal`), with the Discord user id as associated data, so a record copied
 * under another member's id does not open.
 *
 * @returns `v1.<iv>.<tag>.<ciphertext>`, each part base64url without padding
 * @throws RangeError when the key is not 32 bytes; TypeError when the user id holds a lone surrogate
 */
export function sealTokens(tokens: LinkedCredentials, userId: string, key: Buffer): string {
	return seal(JSON.stringify({ accessToken: tokens.accessToken, sessionToken: tokens.sessionToken }), userId, key);
}

/**
 * Opens what `sealTokens` made for the same user id and key.
 *
 * @throws SealError for an unknown format version, a malformed string, or a record that does not authenticate
 *   (another user's, altered, or sealed with another key); its message never holds the key or the tokens
 * @throws RangeError when the key is not 32 bytes; TypeError when the user id holds a lone surrogate
 */
export function openTokens(sealed: string, userId: string, key: Buffer): LinkedCredentials {
	return parsePlaintext(unseal(sealed, userId, key));
}

/**
 * Opens sealed tokens with the current key, else the previous one; `stale` says they should be sealed again with
 * the current key.
 *
 * @throws SealError as `openTokens` does, when no key opens them
 */
export function openTokensWithKeyring(sealed: string, userId: string, keys: Keyring): { credentials: LinkedCredentials; stale: boolean } {
	const { plaintext, stale } = unsealWithKeyring(sealed, userId, keys);
	return { credentials: parsePlaintext(plaintext), stale };
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
