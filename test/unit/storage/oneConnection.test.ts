import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logging/logger.js';
import { openStorage } from '../../../src/storage/openStorage.js';
import { useBothSides } from '../../support/useBothSides.js';

const logger = createLogger('silent');
const dir = mkdtempSync(join(tmpdir(), 'veil-one-connection-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('one store connection per process', () => {
	it('on SQLite: the plain records and the atomic operations share one handle on the file', async () => {
		const path = join(dir, 'bot.sqlite');
		const storage = await openStorage(`sqlite://${path}`, logger);
		try {
			await useBothSides(storage);
			const handles = readdirSync('/proc/self/fd').filter((fd) => {
				try {
					return readlinkSync(`/proc/self/fd/${fd}`) === path;
				} catch {
					return false;
				}
			});
			expect(handles).toHaveLength(1);
		} finally {
			await storage.close();
		}
	});
});
