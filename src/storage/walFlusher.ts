import { open, type FileHandle } from 'node:fs/promises';

/** Writes between two flushes: about a quarter of what SQLite lets the log hold before it checkpoints (1,000 pages). */
const WRITES_PER_FLUSH = 100;

/**
 * Flushes a SQLite file's write-ahead log to disk on Node's thread pool, every {@link WRITES_PER_FLUSH} writes.
 * SQLite's checkpoint (every 1,000 pages or so) runs inside the write that crosses the mark, on the event loop's
 * thread, and first syncs the whole log: with synchronous NORMAL nothing synced it before, so that took 10–20 ms
 * during which no interaction was handled. Synced beforehand, the checkpoint finds little left to sync. An extra
 * sync only ever makes the file safer; the order of SQLite's own syncs is untouched.
 */
export class WalFlusher {
	readonly #walPath: string;
	#writes = 0;
	#handle: Promise<FileHandle | undefined> | undefined;
	#flushing: Promise<void> | undefined;
	#closed = false;

	constructor(databasePath: string) {
		this.#walPath = `${databasePath}-wal`;
	}

	/** Counts one write, and starts a flush in the background when it is due and none is under way. */
	wrote(): void {
		if (++this.#writes < WRITES_PER_FLUSH || this.#flushing || this.#closed) return;
		this.#writes = 0;
		this.#flushing = this.#flush().finally(() => (this.#flushing = undefined));
	}

	async close(): Promise<void> {
		this.#closed = true;
		await this.#flushing;
		await (await this.#handle)?.close();
	}

	async #flush(): Promise<void> {
		// No log (a file not in WAL mode, or none written yet): nothing to sync, and the next flush looks again.
		this.#handle ??= open(this.#walPath, 'r').catch(() => (this.#handle = undefined));
		const handle = await this.#handle;
		// A failed sync costs only the head start: SQLite's checkpoint syncs as it always does.
		await handle?.datasync().catch(() => undefined);
	}
}
