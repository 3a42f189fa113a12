import { ApplicationCommandOptionType } from 'discord.js';
import { randomBytes } from 'node:crypto';
import type { APIUser } from 'discord-api-types/v10';
import { expect, it } from 'vitest';
import { makeUser } from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';
import { safeResponse } from '../support/upstreamStandIn.js';
import { ask as askAndSettle, echoLastPrompt, followUp, followUpAnswer, generationRequestsSince, turnsOf } from '../support/conversations.js';

const harness = useHarness();

const ask = (user: APIUser, prompt: string) =>
	harness()
		.discord.slashCommand({ name: 'ask', user, options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: prompt }] })
		.waitForAnswer(10_000);

function lastAuthorization(): string | string[] | undefined {
	return harness()
		.upstream.requests.filter((request) => request.endpoint === 'generate')
		.at(-1)?.headers.authorization;
}

it('keeps members linked through a key rotation: the previous key opens their link, which is then sealed with the new one', async () => {
	const member = makeUser('rotated');
	const email = 'rotated@example.com';
	harness().upstream.addAccount(email, 'pw');
	await harness().discord.slashCommand({ name: 'link', user: member }).waitForAnswer();
	const linked = await harness()
		.discord.modalSubmit({ customId: 'link:submit', fields: { email, password: 'pw' }, user: member })
		.waitForAnswer(10_000);
	expect(linked.original?.content).toMatch(/Linked/);
	const bearer = `Bearer ${harness().upstream.tokensOf(email)?.accessToken}`;

	const keyA = harness().env.TOKEN_ENCRYPTION_KEY as string;
	const keyB = randomBytes(32).toString('base64');
	await harness().restartBot({ TOKEN_ENCRYPTION_KEY: keyB, TOKEN_ENCRYPTION_KEY_PREVIOUS: keyA });
	expect((await ask(member, 'after the rotation')).original?.content).toBe('Answer to: after the rotation');
	expect(lastAuthorization()).toBe(bearer);

	// The rotation finished: key A is gone, and the link, sealed again with B on its use above, still opens.
	await harness().restartBot({ TOKEN_ENCRYPTION_KEY: keyB, TOKEN_ENCRYPTION_KEY_PREVIOUS: '' });
	expect((await ask(member, 'with B alone')).original?.content).toBe('Answer to: with B alone');
	expect(lastAuthorization()).toBe(bearer);

	// Without the previous key a link sealed with it does not open: the member is asked to link again.
	const other = makeUser('left-behind');
	await harness().linkMember(other.id);
	await harness().restartBot({ TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64') });
	expect((await ask(other, 'hello')).original?.content).toMatch(/could not be read/);
});

it('follows up a conversation through a key rotation, and answers that it has expired once no key opens it', async () => {
	harness().upstream.setDefaultGeneration((request) => ({ json: safeResponse(echoLastPrompt(request)) }));
	const member = makeUser('conversing');
	await harness().linkMember(member.id);
	const keyA = harness().env.TOKEN_ENCRYPTION_KEY as string;
	const first = await askAndSettle(harness(), member, 'before the rotation');
	const second = await askAndSettle(harness(), member, 'another before the rotation');

	const keyB = randomBytes(32).toString('base64');
	await harness().restartBot({ TOKEN_ENCRYPTION_KEY: keyB, TOKEN_ENCRYPTION_KEY_PREVIOUS: keyA });
	const before = harness().upstream.requests.length;
	const next = await followUpAnswer(harness(), first, member, 'after it');
	expect(next.original?.content).toBe('Answer to: after it');
	expect(turnsOf(generationRequestsSince(harness(), before)[0])).toEqual([
		'user:before the rotation',
		'model:Answer to: before the rotation',
		'user:after it',
	]);

	// Key A gone: what only it sealed no longer opens, and the member is told as for any expired conversation.
	await harness().restartBot({ TOKEN_ENCRYPTION_KEY: keyB, TOKEN_ENCRYPTION_KEY_PREVIOUS: '' });
	await harness().linkMember(member.id);
	const linesBefore = harness().logs.length;
	const { press, answer } = await followUp(harness(), second, member, 'too late');
	expect(answer).toBeUndefined();
	expect(press.ephemeral).toBe(true);
	expect(press.original?.content).toBe('This conversation has expired, so Veil no longer has it. Start a new one with /ask.');
	expect(
		harness()
			.logs.slice(linesBefore)
			.some((line) => line.includes('a stored conversation did not open')),
	).toBe(true);
	// The answer given after the rotation, sealed with key B, still follows up.
	expect((await followUpAnswer(harness(), next, member, 'and on')).original?.content).toBe('Answer to: and on');
});
