import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe } from 'vitest';
import { flagsAcrossProcessesContract } from '../../support/contracts/flagsAcrossProcessesContract.js';

const dir = mkdtempSync(join(tmpdir(), 'veil-shared-flags-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const shared = [['a SQLite file', () => `sqlite://${join(dir, `${randomUUID()}.sqlite`)}`]] as const;

describe.each(shared)('two processes sharing %s', (_kind, storeUrl) => flagsAcrossProcessesContract(storeUrl));
