import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { CaseNotes } from '../../../src/moderation/caseNotes.js';
import { createLogger } from '../../../src/logging/logger.js';
import { openAtomicStore } from '../../../src/storage/openStorage.js';
import { generateEncryptionKey, parseEncryptionKey } from '../../../src/crypto/sealing.js';

const logger = createLogger('silent');
const dir = mkdtempSync(join(tmpdir(), 'veil-case-notes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const GUILD = '100000000000000001';
const DAY = 86_400_000;
const keys = { current: parseEncryptionKey(generateEncryptionKey()) };

const stores: Array<[string, () => string]> = [
	['memory', () => 'memory://'],
	['sqlite', () => `sqlite://${join(dir, `notes-${Math.random().toString(36).slice(2)}.sqlite`)}`],
];

describe.each(stores)('CaseNotes on %s', (_kind, storeUrl) => {
	const open = async () => {
		const url = storeUrl();
		return { url, notes: new CaseNotes(await openAtomicStore(url, logger), keys, 30 * DAY) };
	};

	it('keeps one review request per case, its note opened again, and lists it as pending until closed', async () => {
		const { notes } = await open();
		const at = new Date('2030-01-01T00:00:00.000Z');
		expect(await notes.askReview(GUILD, 'flagaaaaaa', 'a quote', at)).toBe('asked');
		expect(await notes.askReview(GUILD, 'flagaaaaaa', 'again', at)).toBe('already');
		expect(await notes.of(GUILD, 'flagaaaaaa', at.getTime())).toEqual({ reviewRequest: { at: at.toISOString(), note: 'a quote' }, reports: [] });
		expect([...(await notes.pendingReviews(GUILD, at.getTime()))]).toEqual(['flagaaaaaa']);
		await notes.reviewClosed(GUILD, 'flagaaaaaa');
		expect([...(await notes.pendingReviews(GUILD, at.getTime()))]).toEqual([]);
		// Another server's case is another case.
		expect(await notes.askReview('100000000000000002', 'flagaaaaaa', undefined, at)).toBe('asked');
	});

	it('makes one case of an answer and keeps one report per member, oldest first', async () => {
		const { notes } = await open();
		const first = await notes.caseOfAnswer(GUILD, '900', 'flagbbbbbb');
		const second = await notes.caseOfAnswer(GUILD, '900', 'flagcccccc');
		expect(first).toEqual({ id: 'flagbbbbbb', isNew: true });
		expect(second).toEqual({ id: 'flagbbbbbb', isNew: false });
		const at = (minutes: number) => new Date(Date.UTC(2030, 0, 1, 0, minutes));
		expect(await notes.reportedBy(GUILD, '900', '701')).toBe(false);
		expect(await notes.addReport(GUILD, 'flagbbbbbb', '701', 'rude', at(1))).toBe('added');
		expect(await notes.addReport(GUILD, 'flagbbbbbb', '702', undefined, at(2))).toBe('added');
		expect(await notes.addReport(GUILD, 'flagbbbbbb', '701', 'twice', at(3))).toBe('already');
		expect(await notes.reportedBy(GUILD, '900', '701')).toBe(true);
		expect(await notes.reportedBy(GUILD, '901', '701')).toBe(false);
		expect((await notes.of(GUILD, 'flagbbbbbb', at(4).getTime())).reports).toEqual([
			{ by: '701', at: at(1).toISOString(), note: 'rude' },
			{ by: '702', at: at(2).toISOString() },
		]);
	});

	it('opens any note as it was written', async () => {
		const { notes } = await open();
		let n = 0;
		await fc.assert(
			fc.asyncProperty(fc.string({ maxLength: 300 }), async (note) => {
				const flagId = `flag${String(n++).padStart(6, '0')}`;
				await notes.askReview(GUILD, flagId, note || undefined);
				expect((await notes.of(GUILD, flagId)).reviewRequest?.note).toBe(note || undefined);
			}),
			{ numRuns: 25 },
		);
	});
});

describe('CaseNotes on a SQLite file', () => {
	it('keeps the notes sealed: the file never holds them in plain', async () => {
		const url = `sqlite://${join(dir, 'sealed.sqlite')}`;
		const notes = new CaseNotes(await openAtomicStore(url, logger), keys, 30 * DAY);
		await notes.askReview(GUILD, 'flagdddddd', 'NOTE-CANARY-REVIEW');
		await notes.addReport(GUILD, 'flagdddddd', '703', 'NOTE-CANARY-REPORT');
		const file = url.slice('sqlite://'.length);
		const bytes = Buffer.concat([readFileSync(file), ...[`${file}-wal`].flatMap((wal) => (safeRead(wal) ? [safeRead(wal) as Buffer] : []))]);
		expect(bytes.includes(Buffer.from('NOTE-CANARY'))).toBe(false);
		expect((await notes.of(GUILD, 'flagdddddd')).reviewRequest?.note).toBe('NOTE-CANARY-REVIEW');
	});
});

function safeRead(path: string): Buffer | undefined {
	try {
		return readFileSync(path);
	} catch {
		return undefined;
	}
}
