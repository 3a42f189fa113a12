import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/harness.js';
import { click, freshServer, lastWords, makeFlag } from '../../support/moderation.js';
import { PausableProxy } from '../../support/pausableProxy.js';
import { testRedisUrl } from '../../support/testRedis.js';

// A line of the claim's script, which no other command Veil sends holds.
const CLAIM_COMMAND = 'if held then return held end';

describe('a Release whose claim Redis answers too late (Redis behind a pausable proxy)', () => {
	let proxy: PausableProxy;
	let harness: Harness;

	beforeAll(async () => {
		const target = new URL(testRedisUrl());
		proxy = await PausableProxy.start({ host: target.hostname, port: Number(target.port || 6379) });
		harness = await startHarness({ env: { STORE_URL: `redis://127.0.0.1:${proxy.port}` } });
	});
	afterAll(async () => {
		proxy?.resume();
		await harness?.stop();
		await proxy?.stop();
	});

	it('says it may not have been saved, posts nothing, and leaves the flag free once Redis answers', async () => {
		const { guild, member, moderator } = freshServer(harness);
		const flag = await makeFlag(harness, member, { prompt: 'a question', text: 'a held answer' });
		const channelId = guild.channels[0]!.id;
		const postsBefore = harness.discord.channelMessages(channelId).length;

		// The claim reaches Redis only after Veil gave up on it (its bound is 1 s): it lands late.
		proxy.pauseAt(CLAIM_COMMAND);
		let pressed;
		try {
			pressed = await click(harness, moderator, `flagged:release:${flag.id}`);
		} finally {
			proxy.resume();
		}
		expect(lastWords(pressed)).toMatch(/may not have been saved/);
		expect(harness.discord.channelMessages(channelId)).toHaveLength(postsBefore);
		expect((await harness.bot.context.flags.find(guild.id, flag.id))?.decision).toBeUndefined();

		// The late claim was given back behind it: the next press releases the answer, once.
		const again = await click(harness, moderator, `flagged:release:${flag.id}`);
		expect(lastWords(again)).not.toMatch(/already|storage/);
		expect((await harness.bot.context.flags.find(guild.id, flag.id))?.decision).toMatchObject({ kind: 'released', by: moderator.user.id });
		const posted = harness.discord.channelMessages(channelId).slice(postsBefore);
		expect(posted.filter((message) => message.content.includes('a held answer'))).toHaveLength(1);
	});
});
