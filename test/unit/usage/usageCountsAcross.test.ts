import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe } from 'vitest';
import { usageCountsContract } from '../../support/contracts/usageCountsContract.js';

const dir = mkdtempSync(join(tmpdir(), 'veil-usage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('usage counted by two processes on one SQLite file', () => usageCountsContract(() => `sqlite://${join(dir, 'usage.sqlite')}`));
