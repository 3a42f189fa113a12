import { ApplicationCommandOptionType, PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BOT_PERMISSIONS, makeUser, type EmulatorMessage } from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';
import { ADMIN_PERMISSIONS, freshServer, runSubcommand } from '../support/moderation.js';
import { generationResponse, ratingsWith, safeResponse } from '../support/upstreamStandIn.js';

// Unlinked members ask with the service key, so any member may talk to Veil.
const harness = useHarness({ env: { REQUIRE_LINK: 'false' } });

/** A channel of a fresh Veil server: each test's conversation is its own. */
function freshChannel(): string {
	return harness().discord.addGuild().channels[0]?.id as string;
}

/** Veil's replies to one message, once the first has come. */
async function repliesTo(message: EmulatorMessage): Promise<EmulatorMessage[]> {
	const { discord } = harness();
	const replies = () =>
		discord
			.channelMessages(message.channel_id)
			.filter((sent) => sent.author.id === discord.bot.id && sent.message_reference?.message_id === message.id);
	await discord.waitUntil(() => replies().length > 0, `Veil's reply to "${message.content}"`);
	return replies();
}

/** The prompts the model was sent in its last generation call, oldest first. */
function lastContents(): string[] {
	const request = harness()
		.upstream.requests.filter((sent) => sent.endpoint === 'generate')
		.at(-1);
	const body = request?.json as { contents?: string | Array<{ parts: Array<{ text?: string }> }> } | undefined;
	const contents = body?.contents;
	if (typeof contents === 'string') return [contents];
	return (contents ?? []).map((turn) => turn.parts.map((part) => part.text ?? '').join(''));
}

describe('talking to Veil by message (no Message Content intent)', () => {
	it('answers every message in a DM as a reply, showing typing and pinging no one', async () => {
		const { discord } = harness();
		const member = makeUser('dana');
		const message = discord.postAsMember({ user: member, channelId: discord.dmChannelId(member), content: 'hello there' });
		const [answer] = await repliesTo(message);
		expect(answer?.content).toBe('Answer to: hello there');
		expect(answer?.allowed_mentions).toEqual({ parse: [] });
		expect(discord.requests.some((request) => request.method === 'POST' && request.path === `/channels/${message.channel_id}/typing`)).toBe(true);
		// The DM's conversation carries on: the next message is sent with what was said before.
		const next = discord.postAsMember({ user: member, channelId: message.channel_id, content: 'and then?' });
		await repliesTo(next);
		expect(lastContents()).toEqual(['hello there', 'Answer to: hello there', 'and then?']);
	});

	it('answers a mention in a thread a member started, in that thread', async () => {
		const { discord } = harness();
		const guild = discord.addGuild({ botPermissions: DEFAULT_BOT_PERMISSIONS | PermissionFlagsBits.SendMessagesInThreads });
		const member = makeUser('uma');
		const thread = discord.startThread(guild.channels[0]?.id as string, 'planning', member);
		expect(discord.thread(thread.id)?.owner_id).toBe(member.id);
		const message = discord.postAsMember({ user: member, channelId: thread.id, content: `<@${discord.bot.id}> what first?` });
		const [answer] = await repliesTo(message);
		expect(answer?.channel_id).toBe(thread.id);
		expect(answer?.content).toBe('Answer to: what first?');
	});

	it('answers a mention in a channel with Veil’s mention removed and other mentions as names', async () => {
		const { discord } = harness();
		const other = makeUser('grace');
		discord.dmChannelId(other);
		const message = discord.postAsMember({ channelId: freshChannel(), content: `<@${discord.bot.id}> say hi to <@${other.id}>` });
		const [answer] = await repliesTo(message);
		expect(answer?.content).toBe('Answer to: say hi to @Grace');
		expect(answer?.mentions).toEqual([]);
	});

	it('takes a reply to Veil’s message as a turn, and a reply without ping, or chatter, as nothing', async () => {
		const { discord, upstream } = harness();
		const channelId = freshChannel();
		const first = discord.postAsMember({ channelId, content: `<@${discord.bot.id}> one` });
		const [answer] = await repliesTo(first);
		const before = upstream.requests.length;
		const unpinged = discord.postAsMember({ channelId, content: 'not for Veil', replyTo: answer, pingOnReply: false });
		const chatter = discord.postAsMember({ channelId, content: 'chatter' });
		const reply = discord.postAsMember({ channelId, content: 'two', replyTo: answer });
		await repliesTo(reply);
		expect(lastContents()).toEqual(['one', 'Answer to: one', 'two']);
		expect(upstream.requests.length).toBe(before + 1);
		for (const ignored of [unpinged, chatter]) {
			expect(discord.channelMessages(ignored.channel_id).some((sent) => sent.message_reference?.message_id === ignored.id)).toBe(false);
		}
	});

	it('leaves no answer behind for a message deleted before its answer', async () => {
		const { discord, upstream } = harness();
		let release: () => void = () => undefined;
		upstream.scriptGeneration({ json: safeResponse('Answer to: gone'), until: new Promise<void>((resolve) => (release = resolve)) });
		const channelId = freshChannel();
		const message = discord.postAsMember({ channelId, content: `<@${discord.bot.id}> gone` });
		await discord.waitUntil(() => upstream.requests.some((request) => request.endpoint === 'generate'), 'the generation call');
		discord.deleteAsMember(message);
		release();
		await discord.waitUntil(() => harness().logs.some((line) => line.includes('its answer is dropped')), 'the answer dropped');
		const answers = discord.channelMessages(message.channel_id).filter((sent) => sent.author.id === discord.bot.id && !sent.deleted);
		expect(answers).toEqual([]);
	});

	it('withholds a held answer in a DM, outside Veil’s servers, with no one to review it', async () => {
		const { discord, upstream } = harness();
		upstream.scriptGeneration({
			json: generationResponse({ text: 'unkind words', candidateRatings: ratingsWith({ HARM_CATEGORY_HARASSMENT: 'MEDIUM' }) }),
		});
		const member = makeUser('quiet');
		const message = discord.postAsMember({ user: member, channelId: discord.dmChannelId(member), content: 'say something unkind' });
		const [notice] = await repliesTo(message);
		expect(notice?.content).not.toContain('unkind words');
		expect(notice?.content).toMatch(/withheld[\s\S]*cannot be released/);
	});

	it('answers a message edited before its answer as it was first sent', async () => {
		const { discord, upstream } = harness();
		let release: () => void = () => undefined;
		upstream.scriptGeneration({ json: safeResponse('Answer to: first words'), until: new Promise<void>((resolve) => (release = resolve)) });
		const generated = upstream.requests.filter((request) => request.endpoint === 'generate').length;
		const message = discord.postAsMember({ channelId: freshChannel(), content: `<@${discord.bot.id}> first words` });
		await discord.waitUntil(() => upstream.requests.filter((request) => request.endpoint === 'generate').length > generated, 'the generation call');
		discord.editAsMember(message, `<@${discord.bot.id}> second words`);
		release();
		const [answer] = await repliesTo(message);
		expect(answer?.content).toBe('Answer to: first words');
		expect(lastContents()).toEqual(['first words']);
	});

	it('holds an answer the ratings do not clear: a notice as the reply, and a case for the moderators', async () => {
		const { discord, upstream, bot } = harness();
		upstream.scriptGeneration({
			json: generationResponse({ text: 'something harsh', candidateRatings: ratingsWith({ HARM_CATEGORY_HARASSMENT: 'MEDIUM' }) }),
		});
		const guild = discord.addGuild();
		const message = discord.postAsMember({ channelId: guild.channels[0]?.id, content: `<@${discord.bot.id}> be harsh` });
		const [notice] = await repliesTo(message);
		expect(notice?.content).not.toContain('something harsh');
		const page = await bot.context.flags.list(guild.id, 1);
		expect(page.flags.map((flag) => [flag.prompt, flag.channelId])).toEqual([['be harsh', message.channel_id]]);
	});

	it('takes two members’ turns in one place one after the other, each answer kept in the conversation', async () => {
		const { discord, upstream } = harness();
		const channelId = freshChannel();
		let release = () => undefined as void;
		upstream.scriptGeneration({ json: safeResponse('Answer to: first'), until: new Promise<void>((resolve) => (release = resolve)) });
		const asked = () => upstream.requests.filter((sent) => sent.endpoint === 'generate').map((sent) => sent.rawBody.toString());
		const first = discord.postAsMember({ user: makeUser('ivy'), channelId, content: `<@${discord.bot.id}> first` });
		await discord.waitUntil(() => asked().some((body) => body.includes('first')), 'the first turn reaching the model');
		const second = discord.postAsMember({ user: makeUser('jun'), channelId, content: `<@${discord.bot.id}> second` });
		// A turn elsewhere, sent after the second, reaches the model: the second had every chance to as well.
		const elsewhere = discord.postAsMember({ user: makeUser('kit'), channelId: freshChannel(), content: `<@${discord.bot.id}> elsewhere` });
		await repliesTo(elsewhere);
		// The second turn waits for the first: asked beside it, it would not know what was said, and one of the two
		// would be lost from the conversation when both were saved.
		expect(asked().some((body) => body.includes('second'))).toBe(false);
		release();
		await repliesTo(first);
		await repliesTo(second);
		expect(lastContents()).toEqual(['first', 'Answer to: first', 'second']);
		const third = discord.postAsMember({ user: makeUser('ivy'), channelId, content: `<@${discord.bot.id}> third` });
		await repliesTo(third);
		expect(lastContents()).toEqual(['first', 'Answer to: first', 'second', 'Answer to: first', 'third']);
	});
});

describe('where Veil may not answer', () => {
	it('tells the member once, by DM, which permission it lacks, and asks nothing upstream', async () => {
		const { discord, upstream } = harness();
		const guild = discord.addGuild({ botPermissions: PermissionFlagsBits.ViewChannel | PermissionFlagsBits.ReadMessageHistory });
		const channelId = guild.channels[0]?.id as string;
		const member = makeUser('hopeful');
		const before = upstream.requests.length;
		discord.postAsMember({ user: member, channelId, content: `<@${discord.bot.id}> hello?` });
		discord.postAsMember({ user: member, channelId, content: `<@${discord.bot.id}> hello??` });
		// A DM turn after them: once it is answered, both mentions were read (one process reads in order).
		await repliesTo(discord.postAsMember({ user: member, channelId: discord.dmChannelId(member), content: 'by DM then' }));
		await discord.waitUntil(() => discord.directMessages(member.id).some((sent) => sent.content.includes('Send Messages')), 'the DM');
		const told = discord.directMessages(member.id).filter((sent) => sent.content.includes('Send Messages'));
		expect(told).toHaveLength(1);
		expect(told[0]?.content).toContain(`<#${channelId}>`);
		expect(upstream.requests.length).toBe(before + 1);
		expect(discord.channelMessages(channelId).filter((sent) => sent.author.id === discord.bot.id)).toEqual([]);
	});

	it('reads a server’s roles and channels once for a run of mentions, and again once Discord says they changed', async () => {
		const { discord } = harness();
		const guild = discord.addGuild();
		const channelId = guild.channels[0]?.id as string;
		const member = makeUser('regular');
		const reads = () =>
			discord.requests.filter(
				(request) => request.method === 'GET' && (request.path.startsWith(`/guilds/${guild.id}`) || request.path === `/channels/${channelId}`),
			).length;
		await repliesTo(discord.postAsMember({ user: member, channelId, content: `<@${discord.bot.id}> first` }));
		const afterFirst = reads();
		expect(afterFirst).toBeGreaterThan(0);
		await repliesTo(discord.postAsMember({ user: member, channelId, content: `<@${discord.bot.id}> second` }));
		expect(reads()).toBe(afterFirst);
		// The channel's overwrites change (CHANNEL_UPDATE): they are read again, and still let Veil answer.
		discord.setChannelOverwrites(channelId, [{ id: guild.id, type: 0, allow: 0n, deny: PermissionFlagsBits.AddReactions }]);
		await repliesTo(discord.postAsMember({ user: member, channelId, content: `<@${discord.bot.id}> third` }));
		expect(reads()).toBeGreaterThan(afterFirst);
		// Veil's role loses Send Messages (GUILD_ROLE_UPDATE): the next mention is not answered, and the member is told.
		discord.setBotPermissions(guild.id, PermissionFlagsBits.ViewChannel | PermissionFlagsBits.ReadMessageHistory);
		discord.postAsMember({ user: member, channelId, content: `<@${discord.bot.id}> fourth` });
		await discord.waitUntil(() => discord.directMessages(member.id).some((sent) => sent.content.includes('Send Messages')), 'the DM');
		expect(discord.channelMessages(channelId).filter((sent) => sent.author.id === discord.bot.id)).toHaveLength(3);
	});
});

describe('/settings mentions', () => {
	it('turns mentions off in one channel (then the server), on by default, and shows it', async () => {
		const { discord, upstream } = harness();
		const { guild, moderator: someone } = freshServer(harness());
		const moderator = { ...someone, permissions: ADMIN_PERMISSIONS };
		const [general, modlog] = guild.channels.map((channel) => channel.id) as [string, string];
		const shown = await runSubcommand(harness(), moderator, 'settings', 'mentions');
		expect(shown.original?.content).toMatch(/anywhere in this server/);
		const off = await runSubcommand(harness(), moderator, 'settings', 'mentions', [
			{ type: ApplicationCommandOptionType.String, name: 'state', value: 'off' },
			{ type: ApplicationCommandOptionType.Channel, name: 'channel', value: general },
		]);
		expect(off.original?.content).toContain(`<#${general}>`);
		expect(off.ephemeral).toBe(true);
		const before = upstream.requests.length;
		const ignored = discord.postAsMember({ channelId: general, content: `<@${discord.bot.id}> anyone?` });
		// Mentions elsewhere in the server still work; the gateway keeps order, so the first was read before it.
		await repliesTo(discord.postAsMember({ channelId: modlog, content: `<@${discord.bot.id}> here?` }));
		expect(upstream.requests.length).toBe(before + 1);
		expect(discord.channelMessages(general).some((sent) => sent.message_reference?.message_id === ignored.id)).toBe(false);
		const serverOff = await runSubcommand(harness(), moderator, 'settings', 'mentions', [
			{ type: ApplicationCommandOptionType.String, name: 'state', value: 'off' },
		]);
		expect(serverOff.original?.content).toMatch(/off\*\* in this whole server[\s\S]*Off in: <#/);
	});
});

describe('Continue in a thread', () => {
	/** A Veil server where Veil may start threads and speak in them, and an answer to /ask there. */
	async function answerInThreadServer(prompt: string) {
		const { discord } = harness();
		const guild = discord.addGuild({
			botPermissions: DEFAULT_BOT_PERMISSIONS | PermissionFlagsBits.CreatePublicThreads | PermissionFlagsBits.SendMessagesInThreads,
		});
		const channelId = guild.channels[0]?.id as string;
		const asker = makeUser('thea');
		const asked = await discord
			.slashCommand({
				name: 'ask',
				user: asker,
				guildId: guild.id,
				channelId,
				options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: prompt }],
			})
			.waitForAnswer();
		const answer = asked.original as EmulatorMessage;
		const customId = buttonIds(answer).find((id) => id.startsWith('ask:thread:'));
		return { guild, channelId, asker, answer, customId };
	}

	it('starts a thread from the answer, named after the question, where mentions and replies go on with what was said', async () => {
		const { discord } = harness();
		const { asker, answer, customId } = await answerInThreadServer('how do tides work?');
		expect(customId).toBeDefined();
		const pressed = await discord.button({ customId: customId as string, user: asker, message: answer, guildId: answer.guild_id }).waitForAnswer();
		expect(pressed.ephemeral).toBe(true);
		const thread = discord.thread(answer.id);
		expect(thread?.name).toBe('how do tides work?');
		expect(thread?.parent_id).toBe(answer.channel_id);
		const [welcome] = discord.channelMessages(answer.id);
		expect(welcome?.content).toContain(`<@${discord.bot.id}>`);
		expect(welcome?.allowed_mentions).toEqual({ parse: [] });
		// A mention, then a reply to Veil's message: each a turn, with the conversation carried over.
		const mention = discord.postAsMember({ user: asker, channelId: answer.id, content: `<@${discord.bot.id}> and the moon?` });
		const [first] = await repliesTo(mention);
		expect(lastContents()).toEqual(['how do tides work?', 'Answer to: how do tides work?', 'and the moon?']);
		const reply = discord.postAsMember({ user: makeUser('other'), channelId: answer.id, content: 'and the sun?', replyTo: first });
		await repliesTo(reply);
		expect(lastContents().at(-1)).toBe('and the sun?');
		expect(lastContents()).toHaveLength(5);
	});

	it('is not offered where Veil may not start threads, and is for the asker alone', async () => {
		const { discord } = harness();
		const plain = await discord
			.slashCommand({ name: 'ask', options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'no thread' }] })
			.waitForAnswer();
		expect(buttonIds(plain.original as EmulatorMessage).some((id) => id.startsWith('ask:thread:'))).toBe(false);
		const { answer, customId } = await answerInThreadServer('mine');
		const other = await discord
			.button({ customId: customId as string, user: makeUser('nosy'), message: answer, guildId: answer.guild_id })
			.waitForAnswer();
		expect(other.original?.content).toMatch(/Only the member who asked/);
		expect(discord.thread(answer.id)).toBeUndefined();
	});

	it('holds an answer in the thread with a notice there, and drops an answer whose thread was archived', async () => {
		const { discord, upstream, bot } = harness();
		const { guild, asker, answer, customId } = await answerInThreadServer('start');
		await discord.button({ customId: customId as string, user: asker, message: answer, guildId: answer.guild_id }).waitForAnswer();
		upstream.scriptGeneration({ json: generationResponse({ text: 'harsh', candidateRatings: ratingsWith({ HARM_CATEGORY_HARASSMENT: 'MEDIUM' }) }) });
		const held = discord.postAsMember({ user: asker, channelId: answer.id, content: `<@${discord.bot.id}> be harsh` });
		const [notice] = await repliesTo(held);
		expect(notice?.content).not.toContain('harsh');
		const page = await bot.context.flags.list(guild.id, 1);
		expect(page.flags.map((flag) => flag.channelId)).toEqual([answer.id]);

		let release: () => void = () => undefined;
		upstream.scriptGeneration({ json: safeResponse('Answer to: late'), until: new Promise<void>((resolve) => (release = resolve)) });
		const late = discord.postAsMember({ user: asker, channelId: answer.id, content: `<@${discord.bot.id}> late` });
		await discord.waitUntil(() => upstream.requests.filter((request) => request.endpoint === 'generate').length >= 3, 'the generation call');
		discord.archiveThread(answer.id);
		release();
		await discord.waitUntil(() => harness().logs.some((line) => line.includes('its answer is dropped')), 'the answer dropped');
		expect(discord.channelMessages(answer.id).some((sent) => sent.message_reference?.message_id === late.id)).toBe(false);
		expect(discord.thread(answer.id)?.thread_metadata?.archived).toBe(true);
	});
});

/** The custom_ids of a message's buttons. */
function buttonIds(message: EmulatorMessage): string[] {
	return [...JSON.stringify(message.components).matchAll(/"custom_id":"([^"]+)"/g)].map((match) => match[1] as string);
}
