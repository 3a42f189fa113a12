import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe } from 'vitest';
import { settingsRepositoryContract } from '../../support/contracts/settingsRepositoryContract.js';

const dir = mkdtempSync(join(tmpdir(), 'veil-settings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const backends = [['SQLite', () => `sqlite://${join(dir, `${randomUUID()}.sqlite`)}`]] as const;

describe.each(backends)('settings on %s, two processes', (_kind, makeUrl) => settingsRepositoryContract(makeUrl));
