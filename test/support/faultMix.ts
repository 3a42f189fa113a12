import { InteractionResponseType } from 'discord.js';
import type { InteractionState, RecordedRequest } from '../../sandbox/discord/emulator.js';
import { CANCEL_OFFERED, WAITING } from './admission.js';
import { generationResponse, ratingsWith, safeResponse, type ScriptedAnswer, type UpstreamRequest } from './upstreamStandIn.js';

// The faults of the fault matrix (see the README): what the upstream stand-in answers each attempt with, and how
// each interaction's final answer is read back from the local Discord.

/** A small seeded generator (mulberry32), so a run's mix can be repeated. */
export function seededRandom(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** Each upstream attempt's answer, by weight. A time-out outlasts GENERATION_TIMEOUT_MS (`timeoutMs`). */
export const UPSTREAM_MIX = [
	['ok', 52],
	['unsafe', 6],
	['blocked', 5],
	['5xx', 9],
	['429', 6],
	['timeout', 5],
	['stalled body', 3],
	['invalid json', 6],
	['reset', 8],
] as const;

export type UpstreamFault = (typeof UPSTREAM_MIX)[number][0];

const TOTAL_WEIGHT = UPSTREAM_MIX.reduce((sum, [, weight]) => sum + weight, 0);

function pick(random: () => number): UpstreamFault {
	let roll = random() * TOTAL_WEIGHT;
	for (const [fault, weight] of UPSTREAM_MIX) {
		roll -= weight;
		if (roll < 0) return fault;
	}
	return 'ok';
}

/** The prompt of a generation request. */
export function promptOf(request: UpstreamRequest): string {
	const contents = (request.json as { contents?: Array<{ parts?: Array<{ text?: string }> }> } | undefined)?.contents;
	return contents?.at(-1)?.parts?.[0]?.text ?? '';
}

/** The stand-in's answer to one attempt, drawn from {@link UPSTREAM_MIX}; `seen` counts what was drawn. */
export function faultyGeneration(random: () => number, timeoutMs: number, seen: Map<string, number>) {
	return (request: UpstreamRequest): ScriptedAnswer => {
		const fault = pick(random);
		seen.set(fault, (seen.get(fault) ?? 0) + 1);
		const delayMs = Math.floor(random() * 150);
		const text = `Answer to: ${promptOf(request)}`;
		switch (fault) {
			case 'ok':
				return { json: safeResponse(text), delayMs };
			case 'unsafe':
				return { json: generationResponse({ text, candidateRatings: ratingsWith({ HARM_CATEGORY_HARASSMENT: 'HIGH' }) }), delayMs };
			case 'blocked':
				return { json: generationResponse({ blockReason: 'SAFETY' }), delayMs };
			case '5xx':
				return { status: random() < 0.5 ? 500 : 503, json: { error: { code: 503, message: 'Unavailable', status: 'UNAVAILABLE' } }, delayMs };
			case '429':
				return { status: 429, headers: { 'retry-after': '1' }, json: { error: { code: 429, message: 'Slow down', status: 'RESOURCE_EXHAUSTED' } } };
			case 'timeout':
				return { json: safeResponse(text), delayMs: timeoutMs + 500 };
			case 'stalled body':
				return { json: safeResponse(text), stallBodyMs: timeoutMs + 500 };
			case 'invalid json':
				return { body: '{"candidates": [{"content": ', headers: { 'content-type': 'application/json' }, delayMs };
			case 'reset':
				return { destroy: true, delayMs };
		}
	};
}

/** How an interaction ended, as its member saw it. */
export type Outcome =
	| 'shown'
	| 'hidden'
	| 'busy'
	| 'limited'
	| 'service down (breaker)'
	| 'upstream error'
	| 'store error'
	| 'link first'
	| 'restarting'
	| 'incident'
	| 'other'
	| 'unanswered'
	| 'answered twice';

/** The final answer's text, and how many final answers the interaction got (a deferral and line news are not). */
export function finalAnswers(state: InteractionState, requests: readonly RecordedRequest[]): { content: string | undefined; count: number } {
	const first = state.callbacks[0];
	if (!first) return { content: undefined, count: 0 };
	const ok = requests.filter((r) => r.status >= 200 && r.status < 300);
	const edits = ok.filter((r) => r.method === 'PATCH' && r.path.endsWith('/messages/@original')).map((r) => contentOf(r));
	const followUps = ok.filter((r) => r.method === 'POST' && r.path.startsWith('/webhooks/')).map((r) => contentOf(r) ?? '');
	// Not answers: news of the line, a slow generation's offer of Cancel, an edit that only takes a button off (no
	// content), and the placeholder a public "thinking…" becomes before it is deleted to answer the member alone.
	const finalEdits = edits.filter(
		(text): text is string => text !== undefined && !WAITING.test(text) && !CANCEL_OFFERED.test(text) && text !== TAKEN_BACK,
	);
	if (first.type !== InteractionResponseType.DeferredChannelMessageWithSource) {
		return { content: (first.data as { content?: string } | undefined)?.content, count: 1 + finalEdits.length + followUps.length };
	}
	const content = followUps.at(-1) ?? finalEdits.at(-1);
	return { content, count: finalEdits.length + followUps.length };
}

const TAKEN_BACK = '…';

function contentOf(request: RecordedRequest): string | undefined {
	const content = (request.json as { content?: unknown } | undefined)?.content;
	return content === undefined ? undefined : String(content);
}

const OUTCOMES: ReadonlyArray<[RegExp, Outcome]> = [
	[/^Answer to: /, 'shown'],
	[/This answer was hidden/, 'hidden'],
	[/^Veil is busy right now/, 'busy'],
	[/still answering your last question|asking quickly|limit of \d+ questions? a day/, 'limited'],
	[/not sending it questions/, 'service down (breaker)'],
	[/^The model's service/, 'upstream error'],
	[/storage/, 'store error'],
	[/Link your account first/, 'link first'],
	[/restarting/, 'restarting'],
	[/Something went wrong/, 'incident'],
];

export function classify(final: { content: string | undefined; count: number }): Outcome {
	if (final.count === 0 || final.content === undefined) return 'unanswered';
	if (final.count > 1) return 'answered twice';
	return OUTCOMES.find(([pattern]) => pattern.test(final.content as string))?.[1] ?? 'other';
}

export type AskMetricOutcome = 'shown' | 'hidden' | 'refused' | 'busy' | 'limited' | 'error';

/**
 * The `veil_asks_total` outcome an /ask that ended this way, as its member saw it, is counted under (see the README's
 * metrics): turned away for the line or a limit, the link-first answer, and every failure as `error` (the breaker's
 * refusals included). The mix has no 401 or 403, so "the model's service" never means the account's refusal here.
 */
export function askMetricOutcome(outcome: string): AskMetricOutcome {
	switch (outcome) {
		case 'shown':
		case 'hidden':
		case 'busy':
		case 'limited':
			return outcome;
		case 'link first':
			return 'refused';
		default:
			return 'error';
	}
}

/** What members saw of every /ask, summed by the `veil_asks_total` outcome each is counted under. */
export function askMetricCounts(askOutcomes: Record<string, number>): Record<AskMetricOutcome, number> {
	const counts: Record<AskMetricOutcome, number> = { shown: 0, hidden: 0, refused: 0, busy: 0, limited: 0, error: 0 };
	for (const [outcome, n] of Object.entries(askOutcomes)) counts[askMetricOutcome(outcome)] += n;
	return counts;
}
