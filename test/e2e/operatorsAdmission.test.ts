import { ApplicationCommandOptionType, InteractionResponseType } from 'discord.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeUser, type InteractionState } from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';
import { door } from '../support/admission.js';
import { echoLastPrompt, settled } from '../support/conversations.js';
import { ADMIN_PERMISSIONS, freshServer, runSubcommand, type Where } from '../support/moderation.js';
import { samples } from '../support/operators.js';
import { safeResponse } from '../support/upstreamStandIn.js';

// The operators' endpoint over HTTP, as Prometheus reads it, while admission turns asks away: `busy` and
// `limited` move by exactly the asks refused, and nothing else does. One generation call at a time and none may
// wait, so a single held call fills the line; two asks a minute per member.
const harness = useHarness({
	env: {
		METRICS_PORT: '0',
		METRICS_HOST: '127.0.0.1',
		ASK_CONCURRENCY: '1',
		ASK_QUEUE_MAX: '0',
		ASK_MEMBER_PER_MINUTE: '2',
		// The test decides when a held call ends: no attempt may time out first.
		GENERATION_TIMEOUT_MS: '20000',
	},
});

const OUTCOMES = ['shown', 'hidden', 'refused', 'busy', 'limited', 'error'] as const;
const NOTHING = { shown: 0, hidden: 0, refused: 0, busy: 0, limited: 0, error: 0, generationCalls: 0 };

/** `veil_asks_total` by outcome and the generation calls timed, read over HTTP from the bot's METRICS_PORT. */
async function counts(): Promise<Record<string, number>> {
	const read = await samples(harness().bot.operatorPort as number);
	return {
		...Object.fromEntries(OUTCOMES.map((outcome) => [outcome, read(`veil_asks_total{outcome="${outcome}"}`)])),
		generationCalls: read('veil_generation_duration_seconds_count'),
	};
}

/** How each count moved since `before`. */
async function movedSince(before: Record<string, number>): Promise<Record<string, number>> {
	const after = await counts();
	return Object.fromEntries(Object.entries(after).map(([name, value]) => [name, value - (before[name] ?? 0)]));
}

/** How each count moved while `act` ran. */
async function movedBy(act: () => Promise<void>): Promise<Record<string, number>> {
	const before = await counts();
	await act();
	return movedSince(before);
}

/** /ask as `where`, once the bot has finished with it (so it has been counted). */
function ask(where: Where, prompt: string): Promise<InteractionState> {
	const handle = harness().discord.slashCommand({
		name: 'ask',
		options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: prompt }],
		user: where.user,
		guildId: where.guild.id,
		memberPermissions: where.permissions,
	});
	return settled(harness(), handle);
}

function expectTurnedAway(state: InteractionState, sentence: RegExp): void {
	expect(state.callbacks.map((callback) => callback.type)).toEqual([InteractionResponseType.ChannelMessageWithSource]);
	expect(state.ephemeral).toBe(true);
	expect(state.original?.content).toMatch(sentence);
}

beforeEach(() => {
	harness().upstream.setDefaultGeneration((request) => ({ json: safeResponse(echoLastPrompt(request)) }));
});

describe('veil_asks_total over HTTP, for asks turned away before the upstream', () => {
	it('counts a second ask while the first runs as limited, and an ask past a full line as busy', async () => {
		const { guild } = freshServer(harness());
		const holder: Where = { user: makeUser('holder'), guild };
		const other: Where = { user: makeUser('other'), guild };
		for (const where of [holder, other]) await harness().linkMember(where.user.id);
		const upstream = door();
		harness().upstream.scriptGeneration({ json: safeResponse('Answer to: held'), until: upstream.closed });

		const before = await counts();
		const requests = harness().upstream.requests.length;
		const held = ask(holder, 'held');
		try {
			await harness().upstream.waitForRequests(requests + 1);
			expectTurnedAway(await ask(holder, 'again'), /still answering your last question/);
			expectTurnedAway(await ask(other, 'no room'), /^Veil is busy right now/);
			// The held call is still running: neither it nor a generation call is counted yet.
			expect(await movedSince(before)).toEqual({ ...NOTHING, limited: 1, busy: 1 });
		} finally {
			// Whatever failed above, the line is left empty for the next test.
			upstream.open();
			await held.catch(() => undefined);
		}
		expect((await held).original?.content).toBe('Answer to: held');
		expect(await movedSince(before)).toEqual({ ...NOTHING, shown: 1, limited: 1, busy: 1, generationCalls: 1 });
	});

	it("counts an ask past the member's pace as limited", async () => {
		const { guild } = freshServer(harness());
		const quick: Where = { user: makeUser('quick'), guild };
		await harness().linkMember(quick.user.id);
		const moved = await movedBy(async () => {
			expect((await ask(quick, 'one')).original?.content).toBe('Answer to: one');
			expect((await ask(quick, 'two')).original?.content).toBe('Answer to: two');
			expectTurnedAway(await ask(quick, 'three'), /^You're asking quickly: at most 2 questions a minute/);
		});
		expect(moved).toEqual({ ...NOTHING, shown: 2, limited: 1, generationCalls: 2 });
	});

	it("counts an ask past the server's daily limit as limited", async () => {
		const { guild, member } = freshServer(harness());
		await harness().linkMember(member.user.id);
		await runSubcommand(harness(), { user: makeUser('admin'), guild, permissions: ADMIN_PERMISSIONS }, 'settings', 'limits', [
			{ type: ApplicationCommandOptionType.Integer, name: 'asks_per_day', value: 1 },
		]);
		const moved = await movedBy(async () => {
			expect((await ask(member, 'today')).original?.content).toBe('Answer to: today');
			// Within the pace (two a minute): only the daily limit turns this one away.
			expectTurnedAway(await ask(member, 'again today'), /limit of 1 question a day/);
		});
		expect(moved).toEqual({ ...NOTHING, shown: 1, limited: 1, generationCalls: 1 });
	});
});
