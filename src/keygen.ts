import { generateEncryptionKey } from './crypto/sealing.js';

// `npm run keygen`: a value for TOKEN_ENCRYPTION_KEY, and nothing else on stdout so it can be piped or captured.
process.stdout.write(`${generateEncryptionKey()}\n`);
