import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunningAsks } from '../../../src/admission/runningAsks.js';
import { AnswerRatings } from '../../../src/conversations/answerRatings.js';
import { createLogger } from '../../../src/logging/logger.js';
import { openStorage, type Storage } from '../../../src/storage/openStorage.js';
import { testRedisUrl } from '../../support/testRedis.js';

// Two connections to one Redis, as two processes have: what each answer action claims or counts in the store holds
// when both act at once.
describe('answer actions across two connections to one Redis', () => {
	const namespace = `answer-actions-${randomUUID()}`;
	let one: Storage;
	let two: Storage;

	beforeAll(async () => {
		one = await openStorage(testRedisUrl(), createLogger('silent'), { namespace });
		two = await openStorage(testRedisUrl(), createLogger('silent'), { namespace });
	});
	afterAll(async () => {
		await Promise.all([one?.close(), two?.close()]);
	});

	const ratingsOf = (storage: Storage) => new AnswerRatings(storage.store, storage.atomic, 86_400_000);

	it('makes one call of two Regenerates pressed at once, and lets a press through again once the claim is given back', async () => {
		const [a, b] = [new RunningAsks(one.atomic), new RunningAsks(two.atomic)];
		const key = 'regenerate:guild:newestversion';
		const claims = await Promise.all([a.claimRegeneration(key, 'press-a', 60_000), b.claimRegeneration(key, 'press-b', 60_000)]);
		expect(claims.filter((held) => held === undefined)).toHaveLength(1);
		const winner = claims[0] === undefined ? 'press-a' : 'press-b';
		await a.releaseRegeneration(key, winner);
		expect(await b.claimRegeneration(key, 'press-c', 60_000)).toBeUndefined();
	});

	it('tells the process running an ask of a Cancel pressed in the other', async () => {
		const [running, elsewhere] = [new RunningAsks(one.atomic), new RunningAsks(two.atomic)];
		running.start('1234567890', new AbortController().signal);
		expect(elsewhere.cancel('1234567890')).toEqual({ kind: 'unknown' });
		expect(await running.cancelRecorded('1234567890')).toBe(false);
		await Promise.all([elsewhere.recordCancel('1234567890'), elsewhere.recordCancel('1234567890')]);
		expect(await running.cancelRecorded('1234567890')).toBe(true);
	});

	it("counts a member's two votes landing at once in two processes once, and a change as a change", async () => {
		const [a, b] = [ratingsOf(one), ratingsOf(two)];
		await Promise.all([a.vote('guild', 'answer000001', 'member', 'up'), b.vote('guild', 'answer000001', 'member', 'up')]);
		expect(await a.counts('guild', 'answer000001')).toEqual({ up: 1, down: 0 });
		await Promise.all([a.vote('guild', 'answer000001', 'member', 'down'), b.vote('guild', 'answer000001', 'other', 'down')]);
		expect(await b.counts('guild', 'answer000001')).toEqual({ up: 0, down: 2 });
		expect(await a.summary('guild', 1)).toEqual({ rated: 1, up: 0, down: 2 });
	});
});
