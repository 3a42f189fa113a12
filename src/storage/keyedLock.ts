/** Runs tasks one at a time per key (a failed task does not block the next); idle keys are forgotten. */
export class KeyedLock {
	readonly #tails = new Map<string, Promise<unknown>>();

	run<T>(key: string, task: () => Promise<T>): Promise<T> {
		const previous = this.#tails.get(key) ?? Promise.resolve();
		const next = previous.catch(() => undefined).then(task);
		this.#tails.set(key, next);
		void next
			.finally(() => {
				if (this.#tails.get(key) === next) this.#tails.delete(key);
			})
			.catch(() => undefined);
		return next;
	}
}
