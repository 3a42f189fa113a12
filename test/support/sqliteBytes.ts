import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Every byte of a SQLite database, its journal and WAL included, as text to search for what must not be there. */
export function sqliteBytes(sqliteFile: string): string {
	const directory = dirname(sqliteFile);
	return readdirSync(directory)
		.filter((name) => name.startsWith(basename(sqliteFile)))
		.map((name) => readFileSync(join(directory, name)).toString('latin1'))
		.join('\n');
}
