/**
 * Preloaded (`node --expose-gc --import dist/bench/probe.js …`) into each bot the bench runs, Veil and the bare
 * bot alike: it answers the bench's questions over the IPC channel and otherwise stays out of the way.
 *
 * - `{ type: 'sample' }` → CPU used since the start (µs; the main thread's apart, and the garbage collector's
 *   pauses) and the RSS now: cheap enough to ask every 50 ms.
 * - `{ type: 'measure' }` → the same after two full garbage collections, with the V8 heap then in use.
 * - `{ type: 'snapshot', path }` → a heap snapshot written to `path` (the soak's `--snapshots`), then the sample.
 *
 * It also counts the process warnings by name (a MaxListenersExceededWarning among them).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { Session } from 'node:inspector/promises';
import { writeHeapSnapshot } from 'node:v8';
import type { ProbeReply, ProbeRequest } from './probeProtocol.js';

const warnings: Record<string, number> = {};
process.on('warning', (warning) => {
	warnings[warning.name] = (warnings[warning.name] ?? 0) + 1;
});

// Every pause of the main thread for the garbage collector (scavenges and the main thread's part of a full
// collection); the concurrent marking and sweeping of V8's own threads shows in the CPU off the main thread instead.
const gc = { micros: 0 };
new PerformanceObserver((list) => {
	for (const entry of list.getEntries()) {
		gc.micros += entry.duration * 1000;
	}
}).observe({ entryTypes: ['gc'] });

/** User + system CPU of the main thread (its task has the process's id), from Linux's /proc; undefined elsewhere. */
function mainThreadMicros(): number | undefined {
	try {
		const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
		// After the command's name (in parentheses, which may hold spaces): utime and stime are fields 14 and 15.
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		// Clock ticks of 10 ms (USER_HZ is 100 on Linux).
		return (Number(fields[11]) + Number(fields[12])) * 10_000;
	} catch {
		return undefined;
	}
}

const collect = (globalThis as { gc?: () => void }).gc;

let profiler: Session | undefined;

/** Starts the CPU profiler, or stops it and writes its profile to `path`. */
async function profile(path: string | undefined): Promise<void> {
	if (!path) {
		profiler = new Session();
		profiler.connect();
		await profiler.post('Profiler.enable');
		await profiler.post('Profiler.start');
		// What was allocated, where (every 32 kB on average), the garbage collector's work included.
		await profiler.post('HeapProfiler.startSampling', {
			samplingInterval: 32_768,
			includeObjectsCollectedByMajorGC: true,
			includeObjectsCollectedByMinorGC: true,
		});
		return;
	}
	if (!profiler) return;
	const { profile: taken } = await profiler.post('Profiler.stop');
	writeFileSync(path, JSON.stringify(taken));
	const { profile: allocations } = await profiler.post('HeapProfiler.stopSampling');
	writeFileSync(path.replace(/\.cpuprofile$/, '.heapprofile'), JSON.stringify(allocations));
	profiler.disconnect();
	profiler = undefined;
}

process.on('message', async (message: ProbeRequest) => {
	if (message.type === 'profile') await profile(message.path);
	if (message.type === 'measure' && collect) {
		collect();
		collect();
	}
	if (message.type === 'snapshot' && message.path) writeHeapSnapshot(message.path);
	const cpu = process.cpuUsage();
	const memory = message.type === 'measure' ? process.memoryUsage() : undefined;
	const reply: ProbeReply = {
		id: message.id,
		cpuMicros: cpu.user + cpu.system,
		mainThreadMicros: mainThreadMicros(),
		gcPauseMicros: gc.micros,
		rss: memory?.rss ?? process.memoryUsage.rss(),
		heapUsed: memory?.heapUsed,
		warnings: { ...warnings },
	};
	process.send?.(reply);
});

// The channel must not keep a bot alive that would otherwise exit.
process.channel?.unref();
// A bench that dies (a crash, a time-out's kill) takes its bots with it: none is left running, orphaned, to load the
// next bench's machine.
process.on('disconnect', () => process.exit(1));
