import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maskEmail } from '../../../src/accounts/maskEmail.js';

describe('maskEmail', () => {
	it.each([
		['alice@example.com', 'a***@example.com'],
		['a@example.com', 'a***@example.com'],
		['Bob.Smith+tag@mail.example.org', 'B***@mail.example.org'],
		['😀smile@example.com', '😀***@example.com'],
		['"odd@local"@example.com', '"***@example.com'],
		['@example.com', '***@example.com'],
		['alice@', 'a***@'],
		['no-at-sign', '***'],
		['', '***'],
	])('%s → %s', (email, masked) => {
		expect(maskEmail(email)).toBe(masked);
	});

	it('never splits a surrogate pair', () => {
		expect(maskEmail('𝒜lice@example.com')).toBe('𝒜***@example.com');
	});
});

describe('maskEmail properties', () => {
	const local = fc.string({ unit: 'binary', minLength: 1 }).filter((s) => !s.includes('@'));
	const domain = fc.string({ unit: 'binary' }).filter((s) => !s.includes('@'));

	it('keeps the first character and the domain, and nothing else of the local part', () => {
		fc.assert(
			fc.property(local, domain, (name, host) => {
				const masked = maskEmail(`${name}@${host}`);
				const first = String.fromCodePoint(name.codePointAt(0)!);
				expect(masked).toBe(`${first}***@${host}`);
				const shown = masked.slice(0, masked.lastIndexOf('@'));
				const rest = name.slice(first.length);
				// One character besides the stars cannot hold a longer rest, nor a different single one.
				if (rest !== '' && rest !== first && !rest.includes('*')) expect(shown).not.toContain(rest);
			}),
		);
	});

	it('shows nothing of a string without @', () => {
		fc.assert(
			fc.property(domain, (text) => {
				expect(maskEmail(text)).toBe('***');
			}),
		);
	});
});
