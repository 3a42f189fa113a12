/** What the bench asks the probe inside a bot process. */
export interface ProbeRequest {
	id: number;
	/**
	 * `sample`: CPU and RSS now; `measure`: the same after two full garbage collections, with the heap; `snapshot`:
	 * the sample, once a heap snapshot is written to `path`; `profile`: starts V8's CPU profiler, or, with `path`,
	 * stops it and writes the profile there (`BENCH_PROFILE`).
	 */
	type: 'sample' | 'measure' | 'snapshot' | 'profile';
	path?: string;
}

/** The probe's answer. */
export interface ProbeReply {
	id: number;
	/** User + system CPU since the process started, in microseconds. */
	cpuMicros: number;
	/** The main thread's share of it (Linux's /proc; undefined elsewhere): the rest is V8's and libuv's threads. */
	mainThreadMicros: number | undefined;
	/** The garbage collector's pauses of the main thread since the start, in microseconds. */
	gcPauseMicros: number;
	rss: number;
	/** V8 heap in use; only for `measure`, after the collections. */
	heapUsed?: number;
	/** Process warnings so far, counted by name. */
	warnings: Record<string, number>;
}
