import { Status, type Client } from 'discord.js';

/** How long the store has to answer a readiness probe. */
const STORE_PROBE_TIMEOUT_MS = 2000;

/** The oldest readiness `/readyz` answers with, counted from the start of its read. */
export const READINESS_MAX_AGE_MS = 1000;

export interface Readiness {
	readonly ready: boolean;
	/** Each shard of this process by id, and its discord.js status name (`Ready`, `Resuming`, `Reconnecting`…). */
	readonly shards: Record<string, string>;
	readonly store: 'answering' | 'not answering';
}

/**
 * Whether this process can serve: every shard it runs READY (one connecting, identifying, resuming or waiting for
 * its servers is not), and the store answering a read within 2 s. Before the first connection no shard is known,
 * so it is not ready.
 */
export async function checkReadiness(client: Client, probeStore: () => Promise<unknown>): Promise<Readiness> {
	const expected = typeof client.options.shards === 'object' ? client.options.shards : [];
	const shards: Record<string, string> = {};
	for (const id of expected) {
		const status = client.ws.shards.get(id)?.status;
		shards[String(id)] = status === undefined ? 'Idle' : (Status[status] ?? String(status));
	}
	const shardsReady = expected.length > 0 && expected.every((id) => client.ws.shards.get(id)?.status === Status.Ready);
	const storeAnswers = await answersWithin(probeStore, STORE_PROBE_TIMEOUT_MS);
	return { ready: shardsReady && storeAnswers, shards, store: storeAnswers ? 'answering' : 'not answering' };
}

async function answersWithin(probe: () => Promise<unknown>, timeoutMs: number): Promise<boolean> {
	let timer: NodeJS.Timeout | undefined;
	const late = new Promise<false>((resolve) => {
		timer = setTimeout(() => resolve(false), timeoutMs);
	});
	try {
		return await Promise.race([
			probe().then(
				() => true,
				() => false,
			),
			late,
		]);
	} finally {
		clearTimeout(timer);
	}
}

/**
 * `read`, asked at most once per `maxAgeMs` however often the answer is wanted: callers while a read is under way
 * share it, and callers soon after reuse its answer, so a flood of probes costs the store one read a second.
 */
export function recentReadiness(
	read: () => Promise<Readiness>,
	maxAgeMs = READINESS_MAX_AGE_MS,
	now: () => number = Date.now,
): () => Promise<Readiness> {
	let last: { startedAt: number; answer: Promise<Readiness>; settled: boolean } | undefined;
	return () => {
		if (last && (!last.settled || now() - last.startedAt < maxAgeMs)) return last.answer;
		const current = { startedAt: now(), answer: read(), settled: false };
		last = current;
		const settle = () => {
			current.settled = true;
		};
		current.answer.then(settle, () => {
			// A failed read is not kept: the next caller tries again.
			if (last === current) last = undefined;
		});
		return current.answer;
	};
}
