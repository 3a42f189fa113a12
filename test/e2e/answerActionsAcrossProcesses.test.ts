import { describe } from 'vitest';
import { answerActionsAcrossProcesses } from '../support/contracts/answerActionsAcrossProcessesContract.js';

describe('answer actions while a second process takes the shards over, on one SQLite file', () => answerActionsAcrossProcesses());
