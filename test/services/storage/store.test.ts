import { describe } from 'vitest';
import { storeContract } from '../../support/contracts/storeContract.js';
import { testRedisUrl } from '../../support/testRedis.js';

describe.each([['redis', testRedisUrl]])('store on %s', (_kind, makeUrl) => storeContract(makeUrl));
