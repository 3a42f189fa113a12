import { chmodSync, closeSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Logger } from '../logging/logger.js';

const PRIVATE_DIRECTORY = 0o700;
const PRIVATE_FILE = 0o600;

/**
 * Makes the SQLite file and its directory readable by Veil's user alone before SQLite opens it: the file holds
 * sealed tokens, and flags' metadata (who asked, where, when) in plain. Missing directories are created 0700 and the
 * file 0600 (SQLite gives its journal the file's mode). An existing file is narrowed to 0600; an existing directory
 * is narrowed to 0700 when it holds nothing but this store's files, and otherwise (the working directory, a shared
 * folder) left as it is, with a warning, since other things in it are not Veil's to change.
 */
export function prepareSqliteFile(path: string, logger: Logger): void {
	const directory = dirname(path);
	mkdirSync(directory, { recursive: true, mode: PRIVATE_DIRECTORY });
	closeSync(openSync(path, 'a', PRIVATE_FILE));
	if ((statSync(path).mode & 0o777) !== PRIVATE_FILE) chmodSync(path, PRIVATE_FILE);

	if ((statSync(directory).mode & 0o077) === 0) return;
	const name = basename(path);
	if (readdirSync(directory).every((entry) => entry === name || entry.startsWith(`${name}-`))) {
		chmodSync(directory, PRIVATE_DIRECTORY);
	} else {
		logger.warn({ directory }, 'the SQLite file is private, but its directory can be listed by other users; a directory of its own is best');
	}
}
