import { ApplicationCommandOptionType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';
import { safeResponse } from '../support/upstreamStandIn.js';

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
});
