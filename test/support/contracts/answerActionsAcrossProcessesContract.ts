import { type APIUser, ApplicationCommandOptionType } from 'discord.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runScript, type BotProcess } from '../botProcess.js';
import { makeUser, type EmulatorMessage, type GuildModel, type InteractionHandle } from '../../../sandbox/discord/emulator.js';
import { guildIdOnShard } from '../../../sandbox/discord/shards.js';
import { buttonsOf } from '../conversations.js';
import { startTestServices, type TestServices } from '../harness.js';
import { ADMIN_PERMISSIONS, cardText, MODERATOR_PERMISSIONS, pollUntil, textOf } from '../moderation.js';
import { PausableProxy } from '../pausableProxy.js';
import { safeResponse } from '../upstreamStandIn.js';

/** The store both processes share: its STORE_URL, and how to end it. */
export interface SharedStore {
	readonly url: string;
	stop(): Promise<void>;
}

/**
 * Answer actions across two processes on one store (issue 36: "two processes"; SPEC §16: presses work across
 * processes, and two at once act once); test/e2e/ runs it on a SQLite file, test/services/ on Redis. The local
 * Discord sends a server's interactions to the session of its shard, as Discord does, so a press on one message
 * reaches one process, except while a deployment rolls over: the first process answers and still has presses in
 * flight when a second one identifies the same shards and takes the next presses. That overlap is where two processes
 * act on one answer at once, and what this plays. `openStore` gives the store (none: the test services' SQLite file).
 */
export function answerActionsAcrossProcesses(openStore?: () => Promise<SharedStore>): void {
	let shared: SharedStore | undefined;
	let services: TestServices;
	// The first process reaches Discord's REST through this proxy, so one of its requests can be held in flight.
	let firstRest: PausableProxy;
	let first: BotProcess;
	let second: BotProcess | undefined;
	let guild: GuildModel;
	const asker = makeUser('asker');
	const voter = makeUser('voter');
	const otherVoter = makeUser('other voter');
	const reporter = makeUser('reporter');
	const moderators = [makeUser('moderator one'), makeUser('moderator two')];
	// The gate of the one regeneration the stand-in answers: held until both presses have been handled.
	let openGate: () => void = () => {};

	beforeAll(async () => {
		shared = await openStore?.();
		services = await startTestServices({
			...(shared ? { STORE_URL: shared.url } : {}),
			REQUIRE_LINK: 'false',
			LOG_LEVEL: 'debug',
			SHARD_COUNT: '4',
			// The held regeneration waits for the second process to start: no time-out, so no retry, meanwhile.
			GENERATION_TIMEOUT_MS: '30000',
		});
		guild = services.discord.addGuild({ id: guildIdOnShard(1, 4), channels: [{ name: 'general' }, { name: 'mod-log' }] });
		const [host, port] = new URL(services.discord.apiUrl).host.split(':');
		firstRest = await PausableProxy.start({ host: host ?? '127.0.0.1', port: Number(port) });
		first = runScript('src/main.ts', { ...services.env, DISCORD_API_URL: `http://127.0.0.1:${firstRest.port}/api` });
		await first.waitForLine(/connected to Discord/, 25_000);
	}, 60_000);

	afterAll(async () => {
		openGate();
		firstRest?.resume();
		first?.kill();
		second?.kill();
		await firstRest?.stop();
		await services?.stop();
		await shared?.stop();
	});

	const at = (user: APIUser, permissions?: bigint) => ({
		user,
		guildId: guild.id,
		channelId: guild.channels[0]!.id,
		...(permissions === undefined ? {} : { memberPermissions: permissions }),
	});
	const generations = () => services.upstream.requests.filter((request) => request.endpoint === 'generate').length;
	/** Which process handled an interaction: the one whose log names it. */
	const handledBy = async (handle: InteractionHandle): Promise<BotProcess[]> => {
		await handle.waitForAnswer(10_000);
		const processes = [first, ...(second ? [second] : [])];
		const names = (bot: BotProcess) => bot.stdout.some((line) => line.includes(`"interactionId":"${handle.id}"`));
		await pollUntil(async () => processes.some(names), `a process to log interaction ${handle.id}`, 10_000, 50);
		return processes.filter(names);
	};
	const askAs = async (user: APIUser, prompt: string): Promise<EmulatorMessage> => {
		const handle = services.discord.slashCommand({
			name: 'ask',
			options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: prompt }],
			...at(user),
		});
		const state = await handle.waitForAnswer(10_000);
		expect(await handledBy(handle)).toEqual([first]);
		return state.original as EmulatorMessage;
	};
	const pressOn = (message: EmulatorMessage, prefix: string, user: APIUser, permissions?: bigint): InteractionHandle => {
		const customId = buttonsOf(services.discord.message(message.id)).find((id) => id.startsWith(prefix));
		if (!customId) throw new Error(`no ${prefix} button on ${message.id}`);
		return services.discord.button({ customId, message: services.discord.message(message.id), ...at(user, permissions) });
	};
	/** A moderator's Remove on the case card: the press opens the form, whose submit decides. */
	const removeAs = async (moderator: APIUser, flagId: string): Promise<InteractionHandle> => {
		const where = { ...at(moderator, MODERATOR_PERMISSIONS), channelId: guild.channels[1]!.id };
		const form = await services.discord.button({ customId: `flagged:remove:${flagId}`, ...where }).waitForAnswer(10_000);
		return services.discord.modalSubmit({ customId: form.modal?.custom_id ?? '', fields: { reason: 'Wrong' }, ...where });
	};

	let regenerated: EmulatorMessage;
	let rated: EmulatorMessage;
	let flagId: string;
	let firstRegenerate: InteractionHandle;
	let firstRemove: InteractionHandle;

	it('has the first process answer, take a 👍 and a report, and start a Regenerate and a Remove it has not finished', async () => {
		const { discord, upstream } = services;
		const admin = at(makeUser('admin'), ADMIN_PERMISSIONS);
		await discord
			.slashCommand({
				name: 'settings',
				options: [
					{
						type: ApplicationCommandOptionType.Subcommand,
						name: 'modlog',
						options: [{ type: ApplicationCommandOptionType.Channel, name: 'channel', value: guild.channels[1]!.id }],
					},
				],
				...admin,
			})
			.waitForAnswer(10_000);
		upstream.scriptGeneration({ json: safeResponse('the first version') });
		regenerated = await askAs(asker, 'regenerate me');
		upstream.scriptGeneration({ json: safeResponse('an answer to rate and report') });
		rated = await askAs(asker, 'rate me');

		const vote = pressOn(rated, 'ask:rate:up:', voter);
		expect((await vote.waitForAnswer(10_000)).original?.content).toBe('You rated this answer 👍. Press the other one to change your vote.');
		expect(await handledBy(vote)).toEqual([first]);

		const opened = await pressOn(rated, 'ask:report:', reporter).waitForAnswer(10_000);
		const sent = discord.modalSubmit({ customId: opened.modal?.custom_id ?? '', fields: { note: '' }, ...at(reporter), message: rated });
		expect(textOf(await sent.waitForAnswer(10_000))).toMatch(/^🚩 Thank you/);
		await discord.waitUntil(() => cardText(discord.channelMessages(guild.channels[1]!.id)[0]).includes('Reported by a member'), 'the case card');
		flagId = /`([a-z0-9]{10})` · model/.exec(cardText(discord.channelMessages(guild.channels[1]!.id)[0]))?.[1] ?? '';
		expect(flagId).not.toBe('');

		// Regenerate: the call reaches the stand-in, which holds its answer.
		const before = generations();
		upstream.scriptGeneration({ json: safeResponse('the second version'), until: new Promise<void>((resolve) => (openGate = resolve)) });
		firstRegenerate = pressOn(regenerated, 'ask:regen:', asker);
		await pollUntil(async () => generations() === before + 1, 'the regeneration to reach the stand-in', 10_000, 50);

		// Remove: the first process wins the decision and is held as it deletes the answer.
		firstRest.pauseAt(`DELETE /api/v10/channels/${rated.channel_id}/messages/${rated.id}`);
		firstRemove = await removeAs(moderators[0]!, flagId);
		await pollUntil(
			async () => first.stdout.some((line) => line.includes(`"interactionId":"${firstRemove.id}"`)),
			'the first Remove to start',
			10_000,
			50,
		);
	});

	it('makes one upstream call of two Regenerates at once, one in each process', async () => {
		const { discord } = services;
		const before = generations();
		second = runScript('src/main.ts', services.env);
		await second.waitForLine(/connected to Discord/, 25_000);

		const again = pressOn(regenerated, 'ask:regen:', asker);
		const refused = await again.waitForAnswer(10_000);
		expect(await handledBy(again)).toEqual([second]);
		expect(refused.ephemeral).toBe(true);
		expect(refused.original?.content).toBe('This answer is already being regenerated. The new one will appear in its place.');
		expect(generations()).toBe(before);

		// The first process's answer comes; it shows once its REST is let go, after the Remove below.
		openGate();
		expect(discord.message(regenerated.id)?.content).toBe('the first version');
	});

	it('counts a 👍 given in the first process once when the same member gives it again in the second', async () => {
		const { discord } = services;
		const again = pressOn(rated, 'ask:rate:up:', voter);
		expect((await again.waitForAnswer(10_000)).original?.content).toBe('You rated this answer 👍. Press the other one to change your vote.');
		expect(await handledBy(again)).toEqual([second]);
		const down = pressOn(rated, 'ask:rate:down:', otherVoter);
		await down.waitForAnswer(10_000);
		// One 👍 and one 👎 as the votes stand: counted twice, the 👍 would make it 33%.
		const stats = discord.slashCommand({
			name: 'flagged',
			options: [{ type: ApplicationCommandOptionType.Subcommand, name: 'stats' }],
			...at(moderators[1]!, MODERATOR_PERMISSIONS),
		});
		expect(textOf(await stats.waitForAnswer(10_000))).toContain('Rated answers: 1, 50% of the votes 👎');
		expect(await handledBy(stats)).toEqual([second]);
	});

	it('removes a reported answer once when each process gets a Remove', async () => {
		const { discord } = services;
		const secondRemove = await removeAs(moderators[1]!, flagId);
		const secondSaid = textOf(await secondRemove.waitForAnswer(10_000));
		expect(await handledBy(secondRemove)).toEqual([second]);
		firstRest.resume();
		const firstSaid = textOf(await firstRemove.waitForAnswer(10_000));
		expect(await handledBy(firstRemove)).toEqual([first]);

		expect(firstSaid).toContain('🗑️ Removed: the answer is deleted');
		expect(secondSaid).toContain('already removed');
		const deletes = discord.requests.filter((request) => request.method === 'DELETE' && request.path.endsWith(`/messages/${rated.id}`));
		expect(deletes).toHaveLength(1);
		expect(discord.message(rated.id)?.deleted).toBe(true);
	});

	it("shows the first process's regeneration, the one call made", async () => {
		const { discord } = services;
		await discord.waitUntil(() => discord.message(regenerated.id)?.content === 'the second version', 'the regenerated answer', 10_000);
		expect(await handledBy(firstRegenerate)).toEqual([first]);
		expect(JSON.stringify(discord.message(regenerated.id)?.components)).toContain('"label":"2/2"');
		expect(services.upstream.requests.filter((request) => request.endpoint === 'generate').map((request) => request.rawBody)).toHaveLength(3);
	});

	it('lets the first process finish what it had in flight and stop', async () => {
		first.child.kill('SIGTERM');
		expect(await first.exited).toBe(0);
		expect(second?.child.exitCode).toBeNull();
	});
}
