import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateEncryptionKey, parseEncryptionKey } from '../../../src/crypto/sealing.js';
import { createLogger } from '../../../src/logging/logger.js';
import { FlagRepository, type FlagRecord } from '../../../src/moderation/flagRepository.js';
import type { AtomicStore } from '../../../src/storage/atomicStore.js';
import { openStorage } from '../../../src/storage/openStorage.js';
import type { Store } from '../../../src/storage/store.js';
import { runTogether } from '../flagProcesses.js';

const GUILD = '100000000000000001';

/**
 * Flags decided and created by two bot processes in one store (test/e2e/ runs it on SQLite, test/services/ on Redis):
 * real processes, each with its own connections, meeting in one store.
 */
export function sharedStoreContract(makeUrl: () => string): void {
	const namespace = `shared-${randomUUID()}`;
	const key = generateEncryptionKey();
	const shared = { url: '', namespace, key };
	let store: Store;
	let atomic: AtomicStore;
	let flags: FlagRepository;

	beforeAll(async () => {
		const storeUrl = (shared.url = makeUrl());
		({ store, atomic } = await openStorage(storeUrl, createLogger('silent'), { namespace }));
		flags = new FlagRepository(store, atomic, 30, { current: parseEncryptionKey(key) });
	});
	afterAll(async () => {
		await Promise.all([store?.close(), atomic?.close()]);
	});

	const newFlag = (): Promise<FlagRecord> =>
		flags.create({ guildId: GUILD, channelId: '200000000000000001', userId: '300000000000000001', prompt: 'p', text: 't', ratings: [], model: 'm' });
	const results = (output: string[][]) => output.map((lines) => JSON.parse(lines.at(-1) ?? 'null') as { kind: string; decision?: unknown });
	const posts = (output: string[][]) => output.flat().filter((line) => line === 'posted').length;

	it('post a release once when both release one flag at once', async () => {
		const flag = await newFlag();
		const output = await runTogether(shared, [
			['decide', GUILD, flag.id, 'released', '501'],
			['decide', GUILD, flag.id, 'released', '502'],
		]);
		expect(posts(output)).toBe(1);
		const [a, b] = results(output);
		expect([a?.kind, b?.kind].sort()).toEqual(['already-decided', 'decided']);
		expect(a?.decision).toEqual(b?.decision);
		expect((await flags.find(GUILD, flag.id))?.decision).toEqual(a?.decision);
	});

	it('let one of a Release and a Dismiss pressed at once succeed, the other reporting it', async () => {
		const flag = await newFlag();
		const output = await runTogether(shared, [
			['decide', GUILD, flag.id, 'released', '501'],
			['decide', GUILD, flag.id, 'dismissed', '502'],
		]);
		const outcomes = results(output);
		expect(outcomes.filter((outcome) => outcome.kind === 'decided')).toHaveLength(1);
		const first = outcomes.find((outcome) => outcome.kind === 'decided')?.decision as { kind: string };
		for (const outcome of outcomes) expect(outcome.decision).toEqual(first);
		expect(posts(output)).toBe(first.kind === 'released' ? 1 : 0);
	});

	it('make one case of an answer two members report at once, holding both reports', async () => {
		const output = await runTogether(shared, [
			['report', GUILD, '900000000000000001', '701'],
			['report', GUILD, '900000000000000001', '702'],
		]);
		const [a, b] = output.map((lines) => JSON.parse(lines.at(-1) ?? 'null') as { id: string; isNew: boolean; added: string });
		expect(a?.id).toBe(b?.id);
		expect([a?.isNew, b?.isNew].filter(Boolean)).toHaveLength(1);
		expect([a?.added, b?.added]).toEqual(['added', 'added']);
		expect((await flags.find(GUILD, a?.id ?? ''))?.report).toEqual({ messageIds: ['900000000000000001'] });
		const { reports } = await flags.notes.of(GUILD, a?.id ?? '');
		expect(reports.map((report) => [report.by, report.note]).sort()).toEqual([
			['701', 'note of 701'],
			['702', 'note of 702'],
		]);
	});

	it("keep one report of a member's two presses landing at once", async () => {
		const output = await runTogether(shared, [
			['report', GUILD, '900000000000000002', '703'],
			['report', GUILD, '900000000000000002', '703'],
		]);
		const added = output.map((lines) => (JSON.parse(lines.at(-1) ?? 'null') as { added: string }).added).sort();
		expect(added).toEqual(['added', 'already']);
	});

	it('delete a reported answer once when both press Remove at once', async () => {
		const flag = await flags.create({
			guildId: GUILD,
			channelId: '200000000000000001',
			userId: '300000000000000001',
			prompt: null,
			text: 'shown',
			ratings: [],
			model: 'm',
			report: { messageIds: ['900000000000000003'] },
		});
		const output = await runTogether(shared, [
			['decide', GUILD, flag.id, 'removed', '501'],
			['decide', GUILD, flag.id, 'removed', '502'],
		]);
		expect(output.flat().filter((line) => line === 'deleted')).toHaveLength(1);
		expect(
			results(output)
				.map((outcome) => outcome.kind)
				.sort(),
		).toEqual(['already-decided', 'decided']);
	});

	it('keep one review request when the asker’s two land at once, and list its case as pending review', async () => {
		const flag = await newFlag();
		const output = await runTogether(shared, [
			['review', GUILD, flag.id],
			['review', GUILD, flag.id],
		]);
		expect(output.map((lines) => JSON.parse(lines.at(-1) ?? 'null') as string).sort()).toEqual(['already', 'asked']);
		expect((await flags.notes.of(GUILD, flag.id)).reviewRequest?.note).toBe('please look again');
		expect((await flags.list(GUILD, 1, { pageSize: 1000 })).flags[0]?.id).toBe(flag.id);
	});

	it('keep every flag both create at once in the server index', async () => {
		const output = await runTogether(shared, [
			['create', GUILD, '15'],
			['create', GUILD, '15'],
		]);
		const created = output.flatMap((lines) => JSON.parse(lines.at(-1) ?? '[]') as string[]);
		expect(created).toHaveLength(30);
		const listed = await flags.list(GUILD, 1, { pageSize: 1000 });
		expect(listed.flags.map((flag) => flag.id)).toEqual(expect.arrayContaining(created));
	});

	it('give each flag both create at once its own case number, which finds it', async () => {
		const output = await runTogether(shared, [
			['create', GUILD, '10'],
			['create', GUILD, '10'],
		]);
		const created = await Promise.all(output.flatMap((lines) => JSON.parse(lines.at(-1) ?? '[]') as string[]).map((id) => flags.find(GUILD, id)));
		const numbers = created.map((flag) => flag?.caseNumber ?? 0);
		expect(new Set(numbers).size).toBe(20);
		for (const flag of created) expect((await flags.findByReference(GUILD, `#${flag?.caseNumber}`))?.id).toBe(flag?.id);
		expect((await newFlag()).caseNumber).toBe(Math.max(...numbers) + 1);
	});
}
