import { describe } from 'vitest';
import { conversationRepositoryContract } from '../../support/contracts/conversationRepositoryContract.js';
import { testRedisUrl } from '../../support/testRedis.js';

describe.each([['redis', testRedisUrl]])('on %s', (_kind, storeUrl) => conversationRepositoryContract(storeUrl));
