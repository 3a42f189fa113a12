interface WriteBatchOptions {
	/** How long the first write of a batch waits for others to join it. */
	readonly windowMs: number;
	/** A batch this full is written at once. */
	readonly maxItems: number;
}

interface OpenBatch<T> {
	readonly items: T[];
	readonly written: Promise<void>;
	readonly settle: (error?: unknown) => void;
	readonly timer: NodeJS.Timeout;
}

/**
 * Gathers the writes made within `windowMs` of the first into one call of `write`, which a store commits as one
 * statement: each commit, each trip to the driver's thread and back, costs about as much as the write itself, and a
 * busy process makes dozens of these writes a second. Each caller's promise settles with its batch.
 */
export class WriteBatch<T extends { readonly key: string }> {
	readonly #write: (items: readonly T[]) => Promise<void>;
	readonly #options: WriteBatchOptions;
	#open: OpenBatch<T> | undefined;
	/** The batch each key not yet written is in: a read of that key waits for it. */
	readonly #pending = new Map<string, Promise<void>>();
	/** The batches being written. */
	readonly #writing = new Set<Promise<void>>();

	constructor(write: (items: readonly T[]) => Promise<void>, options: WriteBatchOptions) {
		this.#write = write;
		this.#options = options;
	}

	/** Adds the write to the open batch (or opens one); resolves once its batch is written, or rejects with its failure. */
	add(item: T): Promise<void> {
		const batch = (this.#open ??= this.#openBatch());
		batch.items.push(item);
		this.#pending.set(item.key, batch.written);
		if (batch.items.length >= this.#options.maxItems) this.#flush(batch);
		return batch.written;
	}

	/** Resolves once the batch holding a write of `key`, if any, has been written or has failed. */
	settled(key: string): Promise<void> {
		return this.#pending.get(key)?.then(ignore, ignore) ?? Promise.resolve();
	}

	/**
	 * Writes the open batch now, without waiting out its window, and resolves once every batch is written or has
	 * failed (each caller hears of its own failure): a process that stops calls it before it closes the store.
	 */
	async flush(): Promise<void> {
		if (this.#open) this.#flush(this.#open);
		await Promise.all([...this.#writing].map((written) => written.then(ignore, ignore)));
	}

	#openBatch(): OpenBatch<T> {
		let settle!: (error?: unknown) => void;
		const written = new Promise<void>((resolve, reject) => {
			settle = (error) => (error === undefined ? resolve() : reject(error));
		});
		// Every caller awaits it; this keeps a batch whose callers have all gone from counting as unhandled.
		written.catch(ignore);
		const batch: OpenBatch<T> = { items: [], written, settle, timer: setTimeout(() => this.#flush(batch), this.#options.windowMs) };
		return batch;
	}

	#flush(batch: OpenBatch<T>): void {
		clearTimeout(batch.timer);
		if (this.#open === batch) this.#open = undefined;
		this.#writing.add(batch.written);
		const settle = (error?: unknown) => {
			for (const { key } of batch.items) if (this.#pending.get(key) === batch.written) this.#pending.delete(key);
			this.#writing.delete(batch.written);
			batch.settle(error);
		};
		new Promise<void>((resolve) => resolve(this.#write(batch.items))).then(
			() => settle(),
			(error: unknown) => settle(error ?? new Error('the batch write failed')),
		);
	}
}

function ignore(): void {}
