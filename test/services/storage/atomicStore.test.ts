import { describe } from 'vitest';
import { atomicStoreContract } from '../../support/contracts/atomicStoreContract.js';
import { testRedisUrl } from '../../support/testRedis.js';

describe.each([['redis', testRedisUrl]])('the atomic store on %s, from two connections', (_kind, storeUrl) => atomicStoreContract(storeUrl));
