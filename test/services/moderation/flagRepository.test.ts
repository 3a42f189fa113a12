import { describe } from 'vitest';
import { flagRepositoryContract } from '../../support/contracts/flagRepositoryContract.js';
import { testRedisUrl } from '../../support/testRedis.js';

describe.each([['redis', testRedisUrl]])('FlagRepository on %s', (_kind, storeUrl) => flagRepositoryContract(storeUrl));
