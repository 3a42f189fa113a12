import { beforeAll, describe, expect, it } from 'vitest';
import { type APIApplicationCommandInteractionDataOption, type APIUser, ApplicationCommandOptionType, MessageFlags } from 'discord.js';
import {
	isAnswered,
	makeUser,
	type ChannelModel,
	type InteractionHandle,
	type EmulatorMessage,
	type GuildModel,
	type InteractionOptions,
	type InteractionState,
} from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';
import { followUpAnswer } from '../support/conversations.js';
import { ADMIN_PERMISSIONS, runSubcommand } from '../support/moderation.js';
import { generationResponse, ratingsWith, safeResponse } from '../support/upstreamStandIn.js';
import { t } from '../../src/i18n/translate.js';

// Veil reached through members' own installs (SPEC §11): in a server that did not install it, in a DM, in a group DM.
const harness = useHarness({ env: { ASK_MEMBER_PER_MINUTE: '0' } });
const member = makeUser('traveller');
let elsewhere: GuildModel;
let strict: GuildModel;
let groupDm: ChannelModel;

beforeAll(async () => {
	await harness().linkMember(member.id);
	harness().upstream.setDefaultGeneration(() => ({ json: safeResponse('Answer from the model') }));
	elsewhere = harness().discord.addGuild({ name: 'Elsewhere', withoutBot: true });
	// A server that turned off external apps for its members: Discord makes a user-installed app's answers ephemeral.
	strict = harness().discord.addGuild({ name: 'Strict', withoutBot: true, everyonePermissions: 0n });
	groupDm = harness().discord.addGroupDm([member, makeUser('friend')]);
});

const unsafe = (text: string) => ({ json: generationResponse({ text, candidateRatings: ratingsWith({ HARM_CATEGORY_HARASSMENT: 'MEDIUM' }) }) });

const places: Record<string, { outside: boolean; where: () => InteractionOptions }> = {
	'a server with Veil': { outside: false, where: () => ({ guildId: harness().discord.defaultGuild.id }) },
	'a server without Veil': { outside: true, where: () => ({ guildId: elsewhere.id }) },
	'a DM with Veil': { outside: true, where: () => ({ guildId: null, installs: ['user'] }) },
	'a group DM': { outside: true, where: () => ({ channelId: groupDm.id }) },
};

function ask(prompt: string, where: InteractionOptions, options: { private?: boolean; user?: APIUser } = {}) {
	const raw: APIApplicationCommandInteractionDataOption[] = [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: prompt }];
	if (options.private !== undefined) raw.push({ type: ApplicationCommandOptionType.Boolean, name: 'private', value: options.private });
	return harness().discord.slashCommand({ name: 'ask', options: raw, user: options.user ?? member, ...where });
}

/** The member's final answer: a public "thinking…" turned private is edited to a mark, deleted, then followed up. */
function finalAnswer(handle: InteractionHandle): Promise<InteractionState> {
	return handle.waitFor((state) => {
		const last = [state.original, ...state.followUps].filter((message) => message && !message.deleted).at(-1);
		return isAnswered(state) && last !== undefined && !last.deferred && last.content !== '…';
	}, 10_000);
}

/** Every message of this interaction anyone but the member could see: not ephemeral, not deleted. */
function publicMessages(state: InteractionState): EmulatorMessage[] {
	const all = [state.original, ...state.followUps].filter((message): message is EmulatorMessage => message !== undefined);
	return [...new Map(all.map((message) => [message.id, message])).values()].filter(
		(message) => !message.deleted && (message.flags & MessageFlags.Ephemeral) === 0,
	);
}

/** The guild and channel routes the bot called since request number `from`. */
function serverReads(from: number): string[] {
	return harness()
		.discord.requests.slice(from)
		.filter((request) => request.path.startsWith('/guilds') || request.path.startsWith('/channels'))
		.map((request) => `${request.method} ${request.path}`);
}

describe('/ask wherever the member is', () => {
	for (const [name, place] of Object.entries(places)) {
		it(`in ${name}: a shown answer in public, a private one to the member alone`, async () => {
			const from = harness().discord.requests.length;
			harness().upstream.scriptGeneration({ json: safeResponse(`Shown in ${name}`) });
			const shown = await ask(`hello from ${name}`, place.where()).waitForAnswer(10_000);
			expect(shown.ephemeral).toBe(false);
			expect(shown.original?.content).toBe(`Shown in ${name}`);
			expect(JSON.stringify(shown.original?.components)).toContain('ask:followup:');

			harness().upstream.scriptGeneration({ json: safeResponse(`Private in ${name}`) });
			const hidden = await ask(`quietly from ${name}`, place.where(), { private: true }).waitForAnswer(10_000);
			expect(hidden.ephemeral).toBe(true);
			expect(hidden.original?.content).toBe(`Private in ${name}`);
			// Outside Veil's servers Veil is no member: it reads no server, channel or role, and posts nowhere.
			if (place.outside) expect(serverReads(from)).toEqual([]);
		});

		it(`in ${name}: a hidden answer's notice says why, ${place.outside ? 'to the member alone, and that it cannot be released' : 'publicly, with its reference'}`, async () => {
			const from = harness().discord.requests.length;
			harness().upstream.scriptGeneration(unsafe('a rude answer'));
			const state = await finalAnswer(ask(`rudely from ${name}`, place.where()));
			const notice = [state.original, ...state.followUps].filter((message) => message && !message.deleted).at(-1);
			expect(notice?.content).toContain('Harassment');
			expect(JSON.stringify(state)).not.toContain('a rude answer');
			if (place.outside) {
				// No OPERATOR_GUILD_ID here: nothing is kept, and the notice is only the member's.
				expect(notice?.content).toContain(t('en-US', 'members.ask.hidden.withheld'));
				expect(notice?.content).not.toMatch(/Reference for moderators/);
				expect(publicMessages(state)).toEqual([]);
				expect(serverReads(from)).toEqual([]);
			} else {
				expect(notice?.content).toMatch(/Reference for moderators: `[a-z0-9]+`/);
				expect(state.ephemeral).toBe(false);
			}
		});
	}

	it('follows up a shown answer in a group DM, with the conversation so far', async () => {
		harness().upstream.scriptGeneration({ json: safeResponse('Paris.') });
		const first = await ask('Capital of France?', { channelId: groupDm.id }).waitForAnswer(10_000);
		const before = harness().upstream.requests.length;
		harness().upstream.scriptGeneration({ json: safeResponse('About two million.') });
		const next = await followUpAnswer(harness(), first, member, 'How many people live there?');
		expect(next.original?.content).toBe('About two million.');
		expect(next.ephemeral).toBe(false);
		const body = harness().upstream.requests.slice(before).at(-1)?.json as { contents: Array<{ role: string; parts: Array<{ text: string }> }> };
		expect(body.contents.map((turn) => turn.parts[0]?.text)).toEqual(['Capital of France?', 'Paris.', 'How many people live there?']);
	});

	it('counts an answer Discord made ephemeral as private: its follow-ups stay with the member', async () => {
		harness().upstream.scriptGeneration({ json: safeResponse('Only you see this') });
		const state = await ask('asked in public', { guildId: strict.id }).waitForAnswer(10_000);
		expect(state.ephemeral).toBe(true);
		expect(state.original?.content).toBe('Only you see this');
		const followUpId = /ask:followup:[^"]+/.exec(JSON.stringify(state.original?.components))?.[0] as string;
		const conversation = await harness().bot.context.conversations.find('outside', followUpId.split(':')[2] as string);
		expect(conversation?.ephemeral).toBe(true);
	});

	it('delivers a 9,000-character answer whole where only the member installed Veil (at most 5 follow-ups)', async () => {
		const paragraphs = Array.from({ length: 10 }, (_, i) => `Paragraph ${i}: ${'word '.repeat(178).trim()}`);
		const text = paragraphs.join('\n\n');
		expect(text.length).toBeGreaterThan(9000);
		harness().upstream.scriptGeneration({ json: safeResponse(text) });
		const state = await ask('tell me everything', { guildId: null, installs: ['user'] }).waitForAnswer(10_000);
		const attached = [state.original, ...state.followUps].flatMap((message) => message?.files ?? []);
		expect(attached.map((file) => file.data.toString('utf8'))).toContain(text);
		expect(state.followUps.filter((message) => message.origin === 'followup').length).toBeLessThanOrEqual(5);
	});
});

describe("a member's own install inside a server with Veil", () => {
	it('is moderated and limited by that server: its daily limit, its flags, its public notice', async () => {
		const guild = harness().discord.addGuild({ name: 'Veil home' });
		const admin = { user: makeUser('admin'), guild, permissions: ADMIN_PERMISSIONS };
		await runSubcommand(harness(), admin, 'settings', 'limits', [{ type: ApplicationCommandOptionType.Integer, name: 'asks_per_day', value: 1 }]);
		const both = { guildId: guild.id, installs: ['guild', 'user'] as const };
		harness().upstream.scriptGeneration(unsafe('held back'));
		const hidden = await ask('first ask', both).waitForAnswer(10_000);
		expect(hidden.original?.content).toMatch(/this server's moderators/);
		const flagId = /Reference for moderators: `([a-z0-9]+)`/.exec(hidden.original?.content ?? '')?.[1] as string;
		expect(await harness().bot.context.flags.find(guild.id, flagId)).toMatchObject({ guildId: guild.id, userId: member.id });

		const upstreamBefore = harness().upstream.requests.length;
		const limited = await ask('second ask', both).waitForAnswer(10_000);
		expect(limited.original?.content ?? limited.followUps.at(-1)?.content).toMatch(/this server's limit of 1 question a day/);
		expect(harness().upstream.requests.length).toBe(upstreamBefore);
	});
});

describe('Ask Veil on any message', () => {
	async function askVeil(target: EmulatorMessage, question: string, where: InteractionOptions = {}) {
		const picked = await harness()
			.discord.messageCommand({ name: 'Ask Veil', target, user: member, ...where })
			.waitForAnswer();
		if (!picked.modal) return { picked };
		const answer = await harness()
			.discord.modalSubmit({ customId: picked.modal.custom_id, fields: { question }, user: member, ...where })
			.waitForAnswer(10_000);
		return { picked, answer };
	}
	const lastPrompt = () =>
		(harness().upstream.requests.at(-1)?.json as { contents: Array<{ parts: Array<{ text: string }> }> }).contents[0]?.parts[0]?.text;

	it("reads a forwarded message's snapshot, in a group DM, from the interaction alone", async () => {
		const original = harness().discord.postAsMember({ user: makeUser('author'), content: 'The picnic moved to Sunday.' });
		const forward = harness().discord.postAsMember({ user: member, channelId: groupDm.id, content: '', forwardOf: original });
		const from = harness().discord.requests.length;
		const { answer } = await askVeil(forward, 'When is the picnic?');
		expect(answer?.original?.content).toMatch(/^Answer/);
		expect(lastPrompt()).toBe('> The picnic moved to Sunday.\n\nWhen is the picnic?');
		expect(serverReads(from)).toEqual([]);
	});

	it("reads an embed-only message's title, description and fields", async () => {
		const target = harness().discord.postAsMember({
			user: makeUser('bot-ish'),
			channelId: elsewhere.channels[0]?.id,
			content: '',
			embeds: [{ title: 'Forecast', description: 'Sunny all day', fields: [{ name: 'High', value: '21°C' }] }],
		});
		const { answer } = await askVeil(target, 'Should I bring a coat?');
		expect(answer?.original?.content).toMatch(/^Answer/);
		expect(lastPrompt()).toBe('> Forecast\n> Sunny all day\n> High: 21°C\n\nShould I bring a coat?');
	});

	it('answers a message with nothing readable, ephemerally, and asks nothing upstream', async () => {
		const target = harness().discord.postAsMember({ user: makeUser('quiet'), channelId: elsewhere.channels[0]?.id, content: '' });
		const before = harness().upstream.requests.length;
		const { picked } = await askVeil(target, 'unused');
		expect(picked.ephemeral).toBe(true);
		expect(picked.original?.content).toBe(t('en-US', 'members.askVeil.noText'));
		expect(harness().upstream.requests.length).toBe(before);
	});
});

describe('ASK_USER_PER_DAY', () => {
	it('refuses the next ask outside Veil servers with when it resets, nothing upstream; servers with Veil keep their own', async () => {
		await harness().restartBot({ ASK_USER_PER_DAY: '2' });
		const counted = makeUser('counted');
		await harness().linkMember(counted.id);
		for (const where of [places['a DM with Veil'], places['a server without Veil']]) {
			const state = await ask('one of two', where?.where() ?? {}, { user: counted }).waitForAnswer(10_000);
			expect(state.original?.content).toMatch(/^Answer/);
		}
		const before = harness().upstream.requests.length;
		const refused = await finalAnswer(ask('one too many', { channelId: groupDm.id }, { user: counted }));
		const words = refused.followUps.at(-1)?.content ?? refused.original?.content ?? '';
		expect(words).toMatch(/limit of 2 questions a day outside servers that added Veil\. It resets <t:\d+:R>\./);
		expect(publicMessages(refused)).toEqual([]);
		expect(harness().upstream.requests.length).toBe(before);
		await harness().bot.router.drain(5000);
		const inVeil = await ask('still fine here', { guildId: harness().discord.defaultGuild.id }, { user: counted }).waitForAnswer(10_000);
		expect(inVeil.original?.content).toMatch(/^Answer/);
	});
});
