/** What the bench asks the probe inside a bot process. */
export interface ProbeRequest {
	id: number;
	/**
	 * `sample`: CPU and RSS now; `measure`: the same after two full garbage collections, with the heap; `snapshot`:
	 * the sample, once a heap snapshot is written to `path`.
	 */
	type: 'sample' | 'measure' | 'snapshot';
	path?: string;
}

/** The probe's answer. */
export interface ProbeReply {
	id: number;
	/** User + system CPU since the process started, in microseconds. */
	cpuMicros: number;
	rss: number;
	/** V8 heap in use; only for `measure`, after the collections. */
	heapUsed?: number;
	/** Process warnings so far, counted by name. */
	warnings: Record<string, number>;
}
