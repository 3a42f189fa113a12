import { describe, expect, it } from 'vitest';
import type { APIUser } from 'discord-api-types/v10';
import { makeUser, type InteractionState } from '../../sandbox/discord/emulator.js';
import { useHarness, type Harness } from '../support/harness.js';

const FIFTEEN_MINUTES_S = 15 * 60;

function submitLink(harness: Harness, user: APIUser, email: string, password: string): Promise<InteractionState> {
	return harness.discord.modalSubmit({ customId: 'link:submit', fields: { email, password }, user }).waitForAnswer(10_000);
}

function loginsFor(harness: Harness, email: string): number {
	return harness.upstream.requests.filter((request) => request.endpoint === 'login' && request.form?.username === email).length;
}

/** The UNIX seconds of the one `<t:…:R>` in an answer. */
function retryAtOf(content: string | undefined): number {
	const match = /<t:(\d+):R>/.exec(content ?? '');
	expect(match, content).not.toBeNull();
	return Number(match?.[1]);
}

describe('/link: 5 submits per member in 15 minutes', () => {
	const harness = useHarness();

	it('refuses the 6th with when to try again, and the account service saw only 5', async () => {
		const guesser = makeUser('guesser');
		const email = 'guessed@example.com';
		harness().upstream.addAccount(email, 'the-real-one');
		const firstAt = Math.floor(Date.now() / 1000);
		for (let guess = 1; guess <= 5; guess++) {
			const state = await submitLink(harness(), guesser, email, `guess-${guess}`);
			expect(state.original?.content).toMatch(/weren't accepted/);
		}
		const lastAt = Math.ceil(Date.now() / 1000);

		const refused = await submitLink(harness(), guesser, email, 'the-real-one');
		expect(refused.ephemeral).toBe(true);
		expect(refused.original?.content).toMatch(/5 times in the last 15 minutes.*try again <t:\d+:R>/);
		const retryAt = retryAtOf(refused.original?.content);
		expect(retryAt).toBeGreaterThanOrEqual(firstAt + FIFTEEN_MINUTES_S);
		expect(retryAt).toBeLessThanOrEqual(lastAt + FIFTEEN_MINUTES_S);
		expect(loginsFor(harness(), email)).toBe(5);
		expect(await harness().bot.context.accounts.find(guesser.id)).toBeUndefined();

		// Another member is not held back by the guesser's count.
		const other = makeUser('other-linker');
		harness().upstream.addAccount('other@example.com', 'pw');
		const linked = await submitLink(harness(), other, 'other@example.com', 'pw');
		expect(linked.original?.content).toMatch(/Linked to/);
	});
});

describe('/link: LINK_PER_PROCESS_PER_MINUTE caps every member together', () => {
	const harness = useHarness({ env: { LINK_PER_PROCESS_PER_MINUTE: '3' } });

	it('refuses a member who has not tried yet once the process has sent 3 in a minute', async () => {
		for (let i = 1; i <= 3; i++) {
			const email = `member-${i}@example.com`;
			harness().upstream.addAccount(email, 'pw');
			const state = await submitLink(harness(), makeUser(`member-${i}`), email, 'pw');
			expect(state.original?.content).toMatch(/Linked to/);
		}
		const late = makeUser('late');
		harness().upstream.addAccount('late@example.com', 'pw');
		const now = Math.floor(Date.now() / 1000);
		const refused = await submitLink(harness(), late, 'late@example.com', 'pw');
		expect(refused.ephemeral).toBe(true);
		expect(refused.original?.content).toMatch(/many link attempts right now.*try again <t:\d+:R>/);
		const retryAt = retryAtOf(refused.original?.content);
		expect(retryAt).toBeGreaterThan(now);
		expect(retryAt).toBeLessThanOrEqual(now + 61);
		expect(loginsFor(harness(), 'late@example.com')).toBe(0);
		expect(harness().upstream.requests.filter((request) => request.endpoint === 'login')).toHaveLength(3);
		expect(await harness().bot.context.accounts.find(late.id)).toBeUndefined();
	});
});
