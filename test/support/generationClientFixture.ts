import { afterEach, beforeEach } from 'vitest';
import { GenerationClient, type GenerationClientOptions } from '../../src/generation/generationClient.js';
import { UpstreamStandIn } from './upstreamStandIn.js';

export interface GenerationClientFixture {
	/** The stand-in of the current test. */
	readonly standIn: UpstreamStandIn;
	/** Replaces the current stand-in with one started with these options. */
	restartStandIn(options?: Parameters<typeof UpstreamStandIn.start>[0]): Promise<UpstreamStandIn>;
	/** A client pointed at the stand-in with test-sized back-offs; closed after the test. */
	client(overrides?: Partial<GenerationClientOptions>): GenerationClient;
}

/** Gives each test a fresh upstream stand-in and closes every client it made. Call at the top of a test file. */
export function useGenerationClient(): GenerationClientFixture {
	let standIn: UpstreamStandIn | undefined;
	const clients: GenerationClient[] = [];
	beforeEach(async () => {
		standIn = await UpstreamStandIn.start();
	});
	afterEach(async () => {
		await Promise.all(clients.splice(0).map((created) => created.close()));
		await standIn?.stop();
	});
	return {
		get standIn() {
			if (!standIn) throw new Error('the stand-in exists only inside a test');
			return standIn;
		},
		async restartStandIn(options) {
			await standIn?.stop();
			standIn = await UpstreamStandIn.start(options);
			return standIn;
		},
		client(overrides = {}) {
			const created = new GenerationClient({
				baseUrl: this.standIn.baseUrl,
				apiKey: this.standIn.apiKey,
				model: this.standIn.model,
				timeoutMs: 5000,
				minRetryDelayMs: 5,
				maxRetryDelayMs: 50,
				...overrides,
			});
			clients.push(created);
			return created;
		},
	};
}
