import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe } from 'vitest';
import { sharedStoreContract } from '../support/contracts/sharedStoreContract.js';

const dir = mkdtempSync(join(tmpdir(), 'veil-shared-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const stores = [['a SQLite file', () => `sqlite://${join(dir, 'shared.sqlite')}`]] as const;

describe.each(stores)('two processes deciding and creating flags in %s', (_kind, makeUrl) => sharedStoreContract(makeUrl));
