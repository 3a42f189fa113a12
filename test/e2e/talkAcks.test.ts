import { ApplicationCommandOptionType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';
import { safeResponse } from '../support/upstreamStandIn.js';
import { t } from '../../src/i18n/translate.js';

// A generation that may take its time: the turn below stays in flight until the test lets it go.
const harness = useHarness({ env: { REQUIRE_LINK: 'false', GENERATION_TIMEOUT_MS: '20000' } });

describe('turns by message beside /ask', () => {
	it('hold no /ask back while one is answered: a message has no acknowledgement for an ask to let go first', async () => {
		const { discord, upstream } = harness();
		let release = () => undefined as void;
		upstream.scriptGeneration({ json: safeResponse('Answer to: slow'), until: new Promise<void>((resolve) => (release = resolve)) });
		const asked = () => upstream.requests.filter((sent) => sent.endpoint === 'generate').map((sent) => sent.rawBody.toString());
		const channelId = discord.addGuild().channels[0]?.id as string;
		const mention = discord.postAsMember({ user: makeUser('vic'), channelId, content: `<@${discord.bot.id}> slow` });
		await discord.waitUntil(() => asked().some((body) => body.includes('slow')), 'the turn reaching the model');
		try {
			// Answered in its usual time, not after the acknowledgements' longest wait (5 s: admission/acksFirst.ts).
			const answered = await discord
				.slashCommand({
					name: 'ask',
					user: makeUser('wes'),
					options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'quick' }],
				})
				.waitForAnswer(2500);
			expect(answered.original?.content).toBe('Answer to: quick');
		} finally {
			release();
		}
		await discord.waitUntil(
			() => discord.channelMessages(channelId).some((sent) => sent.message_reference?.message_id === mention.id),
			'the answer to the turn',
		);
	});

	it('tell a member whose turn is still being answered so, rather than queue their next message behind it', async () => {
		const { discord, upstream } = harness();
		let release = () => undefined as void;
		upstream.scriptGeneration({ json: safeResponse('Answer to: first'), until: new Promise<void>((resolve) => (release = resolve)) });
		const asked = () => upstream.requests.filter((sent) => sent.endpoint === 'generate').map((sent) => sent.rawBody.toString());
		const member = makeUser('xia');
		const channelId = discord.addGuild().channels[0]?.id as string;
		const replyTo = (id: string) => () => discord.channelMessages(channelId).find((sent) => sent.message_reference?.message_id === id);
		const first = discord.postAsMember({ user: member, channelId, content: `<@${discord.bot.id}> first` });
		await discord.waitUntil(() => asked().some((body) => body.includes('first')), 'the first turn reaching the model');
		const second = discord.postAsMember({ user: member, channelId, content: `<@${discord.bot.id}> second` });
		try {
			await discord.waitUntil(() => replyTo(second.id)() !== undefined, 'the reply to the second message');
			expect(replyTo(second.id)()?.content).toBe(t('en-US', 'members.admission.stillAnswering'));
		} finally {
			release();
		}
		await discord.waitUntil(() => replyTo(first.id)() !== undefined, 'the answer to the first');
		expect(asked().some((body) => body.includes('second'))).toBe(false);
	});
});
