import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { FlagRepository, type NewFlag } from '../../../src/moderation/flagRepository.js';
import { generateEncryptionKey, parseEncryptionKey } from '../../../src/crypto/sealing.js';
import { createLogger } from '../../../src/logging/logger.js';
import type { AtomicStore } from '../../../src/storage/atomicStore.js';
import { openStorage } from '../../../src/storage/openStorage.js';
import { SettingsRepository } from '../../../src/settings/settingsRepository.js';
import { moveLegacySettings } from '../../../src/settings/settingsAtStart.js';
import type { Store } from '../../../src/storage/store.js';

const logger = createLogger('silent');

const GUILD = '100000000000000001';
// One key for both, as every process of a deployment has the same TOKEN_ENCRYPTION_KEY.
const KEYS = { current: parseEncryptionKey(generateEncryptionKey()) };

const newFlag: NewFlag = {
	guildId: GUILD,
	channelId: '200000000000000001',
	userId: '300000000000000001',
	noticeMessageId: '400000000000000001',
	prompt: 'a prompt',
	text: 'a held answer',
	ratings: [{ source: 'reply', category: 'HARM_CATEGORY_HARASSMENT', probability: 'MEDIUM', blocked: false }],
	finishReason: 'STOP',
	model: 'textmodel-pro',
};

/** What one process of the bot holds: its own connections and repositories. */
interface Process {
	readonly store: Store;
	readonly atomic: AtomicStore;
	readonly flags: FlagRepository;
	readonly settings: SettingsRepository;
}

async function openProcess(storeUrl: string, namespace: string): Promise<Process> {
	const { store, atomic } = await openStorage(storeUrl, logger, { namespace, operationTimeoutMs: 5000 });
	return { store, atomic, flags: new FlagRepository(store, atomic, 30, KEYS), settings: new SettingsRepository(atomic) };
}

/** Two processes' flags and settings on one shared store (test/unit/moderation runs it on SQLite, test/services/ on Redis). */
export function flagsAcrossProcessesContract(storeUrl: () => string): void {
	let a: Process;
	let b: Process;
	beforeEach(async () => {
		const url = storeUrl();
		const namespace = `shared-${randomUUID()}`;
		a = await openProcess(url, namespace);
		b = await openProcess(url, namespace);
	});
	afterEach(async () => {
		for (const process of [a, b]) await Promise.all([process.store.close(), process.atomic.close()]);
	});

	it('let one of a Release and a Dismiss pressed at once succeed; the other reports the first decision', async () => {
		for (let round = 0; round < 5; round++) {
			const flag = await a.flags.create(newFlag);
			let posts = 0;
			const release = a.flags.decide(GUILD, flag.id, { kind: 'released', by: '501' }, async () => {
				posts += 1;
				await new Promise((resolve) => setTimeout(resolve, 10));
			});
			const dismiss = b.flags.decide(GUILD, flag.id, { kind: 'dismissed', by: '502' });
			const outcomes = await Promise.all([release, dismiss]);
			const decided = outcomes.filter((outcome) => outcome.kind === 'decided');
			expect(decided).toHaveLength(1);
			const first = decided[0]?.kind === 'decided' ? decided[0].flag.decision : undefined;
			for (const outcome of outcomes) expect(outcome.kind === 'not-found' ? undefined : outcome.flag.decision).toEqual(first);
			expect(posts).toBe(first?.kind === 'released' ? 1 : 0);
			expect((await b.flags.find(GUILD, flag.id))?.decision).toEqual(first);
		}
	});

	it('post a release once when both release the same flag at once', async () => {
		const flag = await b.flags.create(newFlag);
		let posts = 0;
		const post = async () => {
			posts += 1;
			await new Promise((resolve) => setTimeout(resolve, 10));
		};
		const outcomes = await Promise.all([
			a.flags.decide(GUILD, flag.id, { kind: 'released', by: '501' }, post),
			b.flags.decide(GUILD, flag.id, { kind: 'released', by: '502' }, post),
		]);
		expect(posts).toBe(1);
		expect(outcomes.map((outcome) => outcome.kind).sort()).toEqual(['already-decided', 'decided']);
	});

	it('let the other release a flag whose first release failed', async () => {
		const flag = await a.flags.create(newFlag);
		await expect(a.flags.decide(GUILD, flag.id, { kind: 'released', by: '501' }, () => Promise.reject(new Error('channel gone')))).rejects.toThrow();
		expect((await b.flags.decide(GUILD, flag.id, { kind: 'released', by: '502' }, async () => undefined)).kind).toBe('decided');
	});

	it('keep every flag in the index when many are created at once by both', async () => {
		const created = await Promise.all(Array.from({ length: 30 }, (_, n) => (n % 2 === 0 ? a : b).flags.create(newFlag)));
		const listed = await a.flags.list(GUILD, 1, { pageSize: 100 });
		expect(listed.total).toBe(30);
		expect(new Set(listed.flags.map((flag) => flag.id))).toEqual(new Set(created.map((flag) => flag.id)));
	});

	it('lose neither of two settings changes made at once', async () => {
		await Promise.all([
			a.settings.update(GUILD, (current) => ({ ...current, modlogChannelId: '600000000000000001' })),
			b.settings.update(GUILD, (current) => ({ ...current, modlogFailure: { at: '2030-01-01T00:00:00.000Z', reason: 'Missing Access' } })),
		]);
		expect(await b.settings.get(GUILD)).toEqual({
			modlogChannelId: '600000000000000001',
			modlogFailure: { at: '2030-01-01T00:00:00.000Z', reason: 'Missing Access' },
		});
	});

	it('move settings an earlier version kept in the keyv store once, both starting at once, losing no newer change', async () => {
		const other = '600000000000000003';
		await a.store.set('settings', GUILD, { modlogChannelId: '600000000000000002' });
		await a.store.set('settings', other, { modlogChannelId: '600000000000000004' });
		// A newer record of the second server, made by this version, stays as it is.
		await b.settings.update(other, () => ({ modlogChannelId: '600000000000000005' }));
		await Promise.all([moveLegacySettings(a.store, a.atomic, logger), moveLegacySettings(b.store, b.atomic, logger)]);
		expect(await b.settings.get(GUILD)).toEqual({ modlogChannelId: '600000000000000002' });
		expect(await a.settings.get(other)).toEqual({ modlogChannelId: '600000000000000005' });
		expect(await a.store.get('settings', GUILD)).toBeUndefined();
		expect(await a.store.get('settings', other)).toBeUndefined();
		// Done once: a record written to keyv now (no version does) is not looked for again.
		await a.store.set('settings', GUILD, { modlogChannelId: '1' });
		await moveLegacySettings(b.store, b.atomic, logger);
		expect(await b.settings.get(GUILD)).toEqual({ modlogChannelId: '600000000000000002' });
	});
}
