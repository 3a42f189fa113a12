import { DiscordAPIError, RESTJSONErrorCodes } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { BlockedByAutomod } from '../../../src/discord/automodRefusal.js';

const TOKEN_URL = 'https://discord.com/api/v10/webhooks/1/secret-interaction-token/messages/@original';
const refusal = (code: number, status = 400) => new DiscordAPIError({ code, message: 'refused' }, code, status, 'PATCH', TOKEN_URL, { body: {} });

describe('BlockedByAutomod', () => {
	it("recognises Discord's AutoMod codes: 200000 the content, 200001 a title", () => {
		expect(BlockedByAutomod.from(refusal(200000))?.blocked).toBe('content');
		expect(BlockedByAutomod.from(refusal(200001))?.blocked).toBe('title');
	});

	it('is nothing else: other API errors, other errors, a code written as text, no error at all', () => {
		for (const other of [
			refusal(RESTJSONErrorCodes.MissingAccess, 403),
			refusal(50035),
			new Error('200000'),
			Object.assign(new Error('look-alike'), { code: 200000 }),
			undefined,
			'200000',
		]) {
			expect(BlockedByAutomod.from(other)).toBeUndefined();
		}
	});

	it('keeps the refusal as its cause and never names the route, which holds the interaction token', () => {
		const cause = refusal(200000);
		const blocked = BlockedByAutomod.from(cause);
		expect(blocked?.cause).toBe(cause);
		expect(blocked?.message).not.toContain('secret-interaction-token');
		expect(BlockedByAutomod.from(blocked)).toBe(blocked);
	});
});
