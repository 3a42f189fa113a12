import { describe } from 'vitest';
import { sharedStoreContract } from '../../support/contracts/sharedStoreContract.js';
import { testRedisUrl } from '../../support/testRedis.js';

describe.each([['Redis', testRedisUrl]])('two processes deciding and creating flags in %s', (_kind, makeUrl) => sharedStoreContract(makeUrl));
