import { describe } from 'vitest';
import { usageCountsContract } from '../../support/contracts/usageCountsContract.js';
import { testRedisUrl } from '../../support/testRedis.js';

describe('usage counted by two processes on one Redis', () => usageCountsContract(testRedisUrl));
