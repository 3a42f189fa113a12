import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SealError } from '../../../src/crypto/sealError.js';
import { generateEncryptionKey, parseEncryptionKey, seal, unsealWithKeyring } from '../../../src/crypto/sealing.js';

const [keyA, keyB, keyC] = [0, 1, 2].map(() => parseEncryptionKey(generateEncryptionKey())) as [Buffer, Buffer, Buffer];

describe('unsealWithKeyring', () => {
	it('opens with the current key as fresh, and with the previous key as stale', () => {
		const byA = seal('text', 'who', keyA);
		expect(unsealWithKeyring(byA, 'who', { current: keyA })).toEqual({ plaintext: 'text', stale: false });
		expect(unsealWithKeyring(byA, 'who', { current: keyB, previous: keyA })).toEqual({ plaintext: 'text', stale: true });
		expect(unsealWithKeyring(seal('text', 'who', keyB), 'who', { current: keyB, previous: keyA })).toEqual({ plaintext: 'text', stale: false });
	});

	it('fails with a SealError when neither key sealed it, or without the previous key, or for another name', () => {
		const byA = seal('text', 'who', keyA);
		expect(() => unsealWithKeyring(byA, 'who', { current: keyB })).toThrow(SealError);
		expect(() => unsealWithKeyring(byA, 'who', { current: keyB, previous: keyC })).toThrow(SealError);
		expect(() => unsealWithKeyring(byA, 'someone else', { current: keyB, previous: keyA })).toThrow(SealError);
		expect(() => unsealWithKeyring('v1.not.a.record', 'who', { current: keyB, previous: keyA })).toThrow(SealError);
	});

	it('opens exactly what one of its keys sealed for the same name, stale exactly when that was the previous key', () => {
		const keys = fc.constantFrom(keyA, keyB, keyC);
		fc.assert(
			fc.property(fc.string(), fc.string({ minLength: 1 }), keys, keys, keys, (plaintext, name, sealer, current, previous) => {
				fc.pre(current !== previous);
				const sealed = seal(plaintext, name, sealer);
				if (sealer !== current && sealer !== previous) {
					expect(() => unsealWithKeyring(sealed, name, { current, previous })).toThrow(SealError);
				} else {
					expect(unsealWithKeyring(sealed, name, { current, previous })).toEqual({ plaintext, stale: sealer !== current });
				}
			}),
		);
	});
});
