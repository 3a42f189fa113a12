/**
 * Past this many table entries (1 MB), the deeper states of an automaton keep only their own transitions: a server
 * with the largest rules Discord allows stays within a few megabytes, and the text still mostly walks the table.
 */
const DENSE_ENTRIES = 1 << 18;

/** A keyword (already lower-cased, wildcards taken off) and what to report when it is found. */
export interface AutomatonKeyword<V> {
	readonly body: string;
	readonly value: V;
}

interface AutomatonTables<V> {
	/** Each character's class (0: in no keyword): below 128 by its code, others by the map. */
	readonly asciiClass: Int32Array;
	readonly otherClass: ReadonlyMap<number, number>;
	readonly classCount: number;
	/** States below this have a full row in `table`: the next state for each class. */
	readonly denseStates: number;
	readonly table: Int32Array;
	readonly fail: Int32Array;
	/**
	 * Breadth-first numbering puts a state's children next to each other: those of `state` are the states from
	 * `childStart[state]` to `childStart[state + 1]`, each entered on the class `label` gives it.
	 */
	readonly childStart: Int32Array;
	readonly label: Uint16Array | Int32Array;
	/** Per state: itself if a keyword ends there, else the nearest state along its failure links where one does (-1: none). */
	readonly firstOut: Int32Array;
	/** The keywords ending at each output state, the longest first along the chain `firstOut[fail[state]]`. */
	readonly values: ReadonlyMap<number, readonly V[]>;
}

/**
 * An Aho–Corasick automaton over UTF-16 code units: a text is read once, one state a character, and every keyword
 * ending at a character is reported there. The characters no keyword holds share one class, which sends the scan
 * back to the start. States are numbered breadth first: the shallow ones, where a text spends most of its time, get
 * a full row of transitions in one table; deeper ones past the table's budget list their own and fall back along
 * their failure links. Built from flat arrays, not a map per state: the largest rule set Discord allows compiles in
 * about ten megabytes.
 */
export class KeywordAutomaton<V> {
	readonly #tables: AutomatonTables<V>;

	constructor(tables: AutomatonTables<V>) {
		this.#tables = tables;
	}

	/** The memory its tables hold, in bytes (the values not counted). */
	get byteLength(): number {
		const { asciiClass, table, fail, childStart, label, firstOut } = this.#tables;
		return [asciiClass, table, fail, childStart, label, firstOut].reduce((sum, array) => sum + array.byteLength, 0);
	}

	/**
	 * Reads `text` from `from` to `to` starting in `state`, and calls `found` with the first output state at each
	 * place a keyword ends (the index past its last unit); returns the state reached.
	 */
	walk(text: string, from: number, to: number, state: number, found: (output: number, end: number) => void): number {
		const { asciiClass, otherClass, classCount, denseStates, table, fail, childStart, label, firstOut } = this.#tables;
		for (let i = from; i < to; i += 1) {
			const code = text.charCodeAt(i);
			const k = code < 128 ? (asciiClass[code] as number) : (otherClass.get(code) ?? 0);
			if (k === 0) {
				state = 0;
				continue;
			}
			for (;;) {
				if (state < denseStates) {
					state = table[state * classCount + k] as number;
					break;
				}
				let next = -1;
				for (let child = childStart[state] as number, last = childStart[state + 1] as number; child < last; child += 1) {
					if (label[child] === k) {
						next = child;
						break;
					}
				}
				if (next >= 0) {
					state = next;
					break;
				}
				state = fail[state] as number;
			}
			const out = firstOut[state] as number;
			if (out >= 0) found(out, i + 1);
		}
		return state;
	}

	/** The longest keyword's output state ending at `state` (-1: none); then `nextOutput` gives the shorter ones. */
	firstOutput(state: number): number {
		return this.#tables.firstOut[state] as number;
	}

	nextOutput(output: number): number {
		return this.#tables.firstOut[this.#tables.fail[output] as number] as number;
	}

	/** Every state where a keyword ends, in ascending order. */
	outputStates(): Iterable<number> {
		return this.#tables.values.keys();
	}

	valuesAt(output: number): readonly V[] {
		return this.#tables.values.get(output) ?? [];
	}

	/** Calls `found` with each keyword's value at every place it ends in `text` (the index past its last unit). */
	scan(text: string, found: (value: V, end: number) => void): void {
		this.walk(text, 0, text.length, 0, (first, end) => {
			for (let out = first; out >= 0; out = this.nextOutput(out)) {
				for (const value of this.valuesAt(out)) found(value, end);
			}
		});
	}
}

/** A trie in flat arrays: a node's children are a list through `sibling`, each labelled with its class. */
class FlatTrie {
	readonly firstChild: number[] = [-1];
	readonly sibling: number[] = [-1];
	readonly label: number[] = [0];

	child(node: number, k: number): number {
		for (let child = this.firstChild[node] as number; child >= 0; child = this.sibling[child] as number) {
			if (this.label[child] === k) return child;
		}
		return -1;
	}

	add(node: number, k: number): number {
		const child = this.label.length;
		this.label.push(k);
		this.firstChild.push(-1);
		this.sibling.push(this.firstChild[node] as number);
		this.firstChild[node] = child;
		return child;
	}
}

/** Compiles the keywords; `denseEntries` bounds the full-row table (a test makes it small to exercise the rest). */
export function compileAutomaton<V>(keywords: ReadonlyArray<AutomatonKeyword<V>>, denseEntries = DENSE_ENTRIES): KeywordAutomaton<V> {
	const classes = new Map<number, number>();
	const trie = new FlatTrie();
	const valuesAt = new Map<number, V[]>();
	for (const { body, value } of keywords) {
		let node = 0;
		for (let i = 0; i < body.length; i += 1) {
			const code = body.charCodeAt(i);
			let k = classes.get(code);
			if (k === undefined) classes.set(code, (k = classes.size + 1));
			const child = trie.child(node, k);
			node = child >= 0 ? child : trie.add(node, k);
		}
		let list = valuesAt.get(node);
		if (!list) valuesAt.set(node, (list = []));
		list.push(value);
	}

	// Breadth-first numbering: a state's failure link and its parent always come before it, its children together.
	const count = trie.label.length;
	const order = new Int32Array(count);
	const childStart = new Int32Array(count + 1);
	let queued = 1;
	for (let at = 0; at < queued; at += 1) {
		childStart[at] = queued;
		for (let child = trie.firstChild[order[at] as number] as number; child >= 0; child = trie.sibling[child] as number) order[queued++] = child;
	}
	childStart[count] = count;
	const classCount = classes.size + 1;
	const label = classCount <= 0xffff ? new Uint16Array(count) : new Int32Array(count);
	for (let state = 1; state < count; state += 1) label[state] = trie.label[order[state] as number] as number;
	const denseStates = Math.min(count, Math.max(1, Math.floor(denseEntries / classCount)));
	const table = new Int32Array(denseStates * classCount);
	const fail = new Int32Array(count);
	const firstOut = new Int32Array(count).fill(-1);
	/** Where `from` goes on class `k`; every state before `from` is linked by then. */
	const next = (from: number, k: number): number => {
		for (let state = from; ; state = fail[state] as number) {
			if (state < denseStates) return table[state * classCount + k] as number;
			for (let child = childStart[state] as number, last = childStart[state + 1] as number; child < last; child += 1) {
				if (label[child] === k) return child;
			}
		}
	};
	const values = new Map<number, readonly V[]>();
	for (let state = 0; state < count; state += 1) {
		const link = fail[state] as number;
		const dense = state < denseStates;
		const row = state * classCount;
		// A row starts as its failure link's: where the state has no transition of its own, the link's applies.
		if (dense && state !== 0) table.copyWithin(row, link * classCount, link * classCount + classCount);
		for (let child = childStart[state] as number, last = childStart[state + 1] as number; child < last; child += 1) {
			const k = label[child] as number;
			if (dense) table[row + k] = child;
			fail[child] = state === 0 ? 0 : next(link, k);
		}
		const own = valuesAt.get(order[state] as number);
		if (own) values.set(state, own);
		firstOut[state] = own ? state : state === 0 ? -1 : (firstOut[link] as number);
	}

	const asciiClass = new Int32Array(128);
	const otherClass = new Map<number, number>();
	for (const [code, k] of classes) {
		if (code < 128) asciiClass[code] = k;
		else otherClass.set(code, k);
	}
	return new KeywordAutomaton({ asciiClass, otherClass, classCount, denseStates, table, fail, childStart, label, firstOut, values });
}
