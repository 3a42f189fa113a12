import { Status, type Client } from 'discord.js';

/** How long the store has to answer a readiness probe. */
const STORE_PROBE_TIMEOUT_MS = 2000;

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
	const expected = Array.isArray(client.options.shards) ? client.options.shards : [];
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
		return await Promise.race([probe().then(() => true, () => false), late]);
	} finally {
		clearTimeout(timer);
	}
}
