import { describe } from 'vitest';
import { flagsAcrossProcessesContract } from '../../support/contracts/flagsAcrossProcessesContract.js';
import { testRedisUrl } from '../../support/testRedis.js';

describe.each([['Redis', testRedisUrl]])('two processes sharing %s', (_kind, storeUrl) => flagsAcrossProcessesContract(storeUrl));
