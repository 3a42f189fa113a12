import { type APIApplicationCommandInteractionDataOption, ApplicationCommandOptionType } from 'discord.js';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeUser, type GuildModel } from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';
import { ADMIN_PERMISSIONS, runSubcommand, type Where } from '../support/moderation.js';
import { answerMessages, contentsOf, echoLastPrompt, followUpIdOf, generationRequestsSince, settled } from '../support/conversations.js';
import { safeResponse } from '../support/upstreamStandIn.js';

const harness = useHarness();
const asker = makeUser('instructed');
let guild: GuildModel;
let general: string;
let support: string;
let admin: Where;

beforeAll(async () => {
	guild = harness().discord.addGuild({ channels: [{ name: 'general' }, { name: 'support' }] });
	[general, support] = guild.channels.map((channel) => channel.id) as [string, string];
	admin = { user: makeUser('admin'), guild, permissions: ADMIN_PERMISSIONS };
	await harness().linkMember(asker.id);
});
beforeEach(() => {
	harness().upstream.setDefaultGeneration((request) => ({ json: safeResponse(echoLastPrompt(request)) }));
});

function instructions(options: APIApplicationCommandInteractionDataOption[], where: Where = admin) {
	return runSubcommand(harness(), where, 'settings', 'instructions', options);
}
const text = (value: string) => ({ type: ApplicationCommandOptionType.String as const, name: 'text', value });
const channel = (id: string) => ({ type: ApplicationCommandOptionType.Channel as const, name: 'channel', value: id });
const clear = { type: ApplicationCommandOptionType.Boolean as const, name: 'clear', value: true };

async function askIn(channelId: string, prompt: string) {
	const before = harness().upstream.requests.length;
	const handle = harness().discord.slashCommand({
		name: 'ask',
		options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: prompt }],
		user: asker,
		guildId: guild.id,
		channelId,
	});
	const answer = await settled(harness(), handle);
	return { answer, request: generationRequestsSince(harness(), before)[0] };
}

const instructed = (value: string) => [
	{ role: 'user', parts: [{ text: `Instructions from this server's moderators:\n${value}` }] },
	{ role: 'model', parts: [{ text: 'Understood.' }] },
];

describe('/settings instructions', () => {
	it('refuses a member without Manage Server, changing nothing', async () => {
		const refused = await instructions([text('Answer in French.')], { user: makeUser('plain'), guild });
		expect(refused.ephemeral).toBe(true);
		expect(refused.original?.content).toBe('You need the Manage Server permission in this server to do this.');
		expect((await instructions([])).original?.content).toBe('No instructions are set for this server. Set some with `/settings instructions text:`.');
	});

	it('sets, shows and clears the server’s and a channel’s instructions', async () => {
		const set = await instructions([text('Answer in short steps.')]);
		expect(set.ephemeral).toBe(true);
		expect(set.original?.content).toMatch(/^✅ Instructions for this server set\./);
		expect(set.original?.embeds[0]?.description).toBe('```\nAnswer in short steps.\n```');

		await instructions([text('Only about ```billing```.'), channel(support)]);
		const shown = await instructions([]);
		expect(shown.original?.content).toBe(
			`Instructions for this server, sent ahead of every question asked there:\nChannels with their own instructions (replacing the server's there): <#${support}>.`,
		);
		expect(shown.original?.embeds[0]?.description).toBe('```\nAnswer in short steps.\n```');
		const ofChannel = await instructions([channel(support)]);
		expect(ofChannel.original?.embeds[0]?.description).toBe('````\nOnly about ```billing```.\n````');
		const ofOther = await instructions([channel(general)]);
		expect(ofOther.original?.content).toBe(
			`No instructions are set for <#${general}>. Set some with \`/settings instructions text:\`.\nThe server's instructions apply there.`,
		);

		expect((await instructions([text('x'), clear])).original?.content).toBe('Give either `text` or `clear:True`, not both. Nothing was changed.');
		expect((await instructions([clear, channel(support)])).original?.content).toBe(`✅ Instructions for <#${support}> removed.`);
		expect((await instructions([clear])).original?.content).toBe('✅ Instructions for this server removed.');
		expect((await instructions([])).original?.content).toBe('No instructions are set for this server. Set some with `/settings instructions text:`.');
	});
});

describe('instructions on the wire', () => {
	it('go first, at the server and at a channel (the channel’s replacing the server’s), never in the answer', async () => {
		await instructions([text('Be brief.')]);
		await instructions([text('Support only.'), channel(support)]);
		try {
			const inGeneral = await askIn(general, 'Hello?');
			expect(inGeneral.request?.rawBody).toBe(
				JSON.stringify({ contents: [...instructed('Be brief.'), { role: 'user', parts: [{ text: 'Hello?' }] }] }),
			);
			expect(inGeneral.answer.original?.content).toBe('Answer to: Hello?');
			const inSupport = await askIn(support, 'Help?');
			expect(inSupport.request?.rawBody).toBe(
				JSON.stringify({ contents: [...instructed('Support only.'), { role: 'user', parts: [{ text: 'Help?' }] }] }),
			);
		} finally {
			await instructions([clear, channel(support)]);
			await instructions([clear]);
		}
		// Without them, the lone ask's body is as it always was.
		expect((await askIn(general, 'Plain')).request?.rawBody).toBe('{"contents":[{"parts":[{"text":"Plain"}]}]}');
	});

	it('are kept across trimming: older turns go, the instructions stay first', async () => {
		await instructions([text('Stay on topic.')]);
		try {
			const long = (n: number) => `${n}:${'w'.repeat(3_900)}`;
			let { answer } = await askIn(general, long(1));
			let last;
			for (const n of [2, 3]) {
				const message = answerMessages(answer).at(-1);
				const press = await harness()
					.discord.button({ customId: followUpIdOf(answer), message, user: asker })
					.waitForAnswer();
				const before = harness().upstream.requests.length;
				answer = await settled(
					harness(),
					harness().discord.modalSubmit({ customId: press.modal?.custom_id as string, fields: { prompt: long(n) }, user: asker }),
				);
				last = generationRequestsSince(harness(), before)[0];
			}
			const contents = contentsOf(last);
			expect(contents.slice(0, 2)).toEqual(instructed('Stay on topic.'));
			// The first exchange (about 8,000 characters) no longer fits beside the second and the new prompt.
			expect(contents.slice(2).map((content) => content.parts[0]?.text.slice(0, 2))).toEqual(['2:', 'An', '3:']);
			const characters = contents.reduce((sum, content) => sum + content.parts.reduce((s, part) => s + part.text.length, 0), 0);
			expect(characters).toBeLessThanOrEqual(16_000);
		} finally {
			await instructions([clear]);
		}
	});
});
