import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { generateEncryptionKey } from '../../../src/crypto/sealing.js';
import { createLogger } from '../../../src/logging/logger.js';
import { openAtomicStore } from '../../../src/storage/openStorage.js';
import { UsageCounts } from '../../../src/usage/usageCounts.js';
import { usageCsv } from '../../../src/usage/usageCsv.js';
import { serverReport } from '../../../src/usage/usageReport.js';

const run = promisify(execFile);
const silent = createLogger('silent');

function countInChildProcess(args: string[]): Promise<{ stdout: string }> {
	return run(process.execPath, ['--import', 'tsx', 'test/support/usageProcess.ts', ...args], { timeout: 30_000 });
}

/** Usage counted by two processes at once on one store (test/unit/usage runs it on SQLite, test/services/ on Redis). */
export function usageCountsContract(makeUrl: () => string): void {
	it('adds up every ask both count at once, and counts the members who asked once each', async () => {
		const url = makeUrl();
		const namespace = `usage-${randomUUID()}`;
		const key = generateEncryptionKey();
		const guildId = '100000000000000077';
		const atomic = await openAtomicStore(url, silent, { namespace });
		try {
			const outputs = await Promise.all(['one', 'two'].map((name) => countInChildProcess([url, namespace, key, guildId, name])));
			expect(outputs.map(({ stdout }) => stdout)).toEqual(['counted', 'counted']);
			const usage = new UsageCounts({ atomic, retentionDays: 30, log: silent, hashKey: Buffer.from(key, 'base64') });
			const read = await usage.server(guildId, 2);
			const report = serverReport(read);
			expect(report.totals).toMatchObject({ asks: 16, shown: 10, held: 2, refused: 2, failed: 2 });
			expect(report.totals.heldBy.ratings).toBe(2);
			expect(report.totals.refusedBy.limits).toBe(2);
			expect(report.askers).toBe(7);
			expect(report.busiest).toEqual([
				{ channelId: '201', asks: 10 },
				{ channelId: '202', asks: 6 },
			]);
			const today = new Date().toISOString().slice(0, 10);
			expect(
				usageCsv(read, () => undefined)
					.split('\r\n')
					.slice(1, -1),
			).toEqual([`${today},201,,10,8,2,2,0,0,0,0,0,0,0,0,0,7`, `${today},202,,6,2,0,0,0,0,2,2,0,0,0,0,2,7`]);
			// A member's own days: `shared` asked in both processes; a refusal by the limit is not one of c's asks.
			expect((await usage.member(guildId, 'shared'))[0]).toBe(2);
			expect((await usage.member(guildId, 'one-c'))[0]).toBe(1);
			expect((await usage.member(null, 'shared'))[0]).toBe(0);
		} finally {
			await atomic.close();
		}
	});
}
