import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe } from 'vitest';
import { conversationRepositoryContract } from '../../support/contracts/conversationRepositoryContract.js';

const dir = mkdtempSync(join(tmpdir(), 'veil-conversations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const stores: Array<[string, () => string]> = [
	['memory', () => 'memory://'],
	['sqlite', () => `sqlite://${join(dir, `c-${Math.random().toString(36).slice(2)}.sqlite`)}`],
];

describe.each(stores)('on %s', (_kind, storeUrl) => conversationRepositoryContract(storeUrl));
