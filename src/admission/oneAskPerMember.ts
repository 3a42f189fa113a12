/**
 * At most one ask per member in this process, waiting or running: a member who asks again before the first answer
 * would only add to the line. Another process serving the same member keeps its own count.
 */
export class OneAskPerMember {
	readonly #holding = new Set<string>();

	/** Members with an ask in progress. */
	get size(): number {
		return this.#holding.size;
	}

	/** The release of the member's one ask, or undefined when they already have one. Releasing twice does nothing. */
	tryHold(memberId: string): (() => void) | undefined {
		if (this.#holding.has(memberId)) return undefined;
		this.#holding.add(memberId);
		let held = true;
		return () => {
			if (!held) return;
			held = false;
			this.#holding.delete(memberId);
		};
	}
}
