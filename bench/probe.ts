/**
 * Preloaded (`node --expose-gc --import dist/bench/probe.js …`) into each bot the bench runs, Veil and the bare
 * bot alike: it answers the bench's questions over the IPC channel and otherwise stays out of the way.
 *
 * - `{ type: 'sample' }` → CPU used since the start (µs) and the RSS now: cheap enough to ask every 50 ms.
 * - `{ type: 'measure' }` → the same after two full garbage collections, with the V8 heap then in use.
 * - `{ type: 'snapshot', path }` → a heap snapshot written to `path` (the soak's `--snapshots`), then the sample.
 *
 * It also counts the process warnings by name (a MaxListenersExceededWarning among them).
 */
import { writeHeapSnapshot } from 'node:v8';
import type { ProbeReply, ProbeRequest } from './probeProtocol.js';

const warnings: Record<string, number> = {};
process.on('warning', (warning) => {
	warnings[warning.name] = (warnings[warning.name] ?? 0) + 1;
});

const collect = (globalThis as { gc?: () => void }).gc;

process.on('message', (message: ProbeRequest) => {
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
		rss: memory?.rss ?? process.memoryUsage.rss(),
		heapUsed: memory?.heapUsed,
		warnings: { ...warnings },
	};
	process.send?.(reply);
});

// The channel must not keep a bot alive that would otherwise exit.
process.channel?.unref();
