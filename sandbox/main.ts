import { startSandbox, stopSandbox, veilLogPath } from './sandbox.js';
import { readSettings, SandboxRefusal, type SandboxSettings } from './settings.js';

// `npm run sandbox`: Veil, unmodified and compiled, against a local Discord and a local model, with a page to use it.

const say = (line: string) => process.stdout.write(`${line}\n`);

let settings: SandboxSettings;
try {
	settings = readSettings(process.env);
} catch (error) {
	if (!(error instanceof SandboxRefusal)) throw error;
	process.stderr.write(`${error.message}\n`);
	process.exit(1);
}

let stopping = false;
const stop = (code: number) => {
	if (stopping) return;
	stopping = true;
	say('Stopping the sandbox…');
	void stopSandbox().then(() => {
		const log = veilLogPath();
		if (log) say(`Veil's log is kept: ${log}`);
		process.exit(code);
	});
};
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

try {
	const sandbox = await startSandbox(settings, say);
	if (!stopping) {
		say('');
		say(`  Veil's sandbox is ready: ${sandbox.url}`);
		say(
			`  ${settings.realModel ? `Model: the real service at ${new URL(settings.realModel.baseUrl).origin}` : "Model: the local one (the page's model panel decides its answers)"}`,
		);
		say('  Press Ctrl-C to stop it.');
		say('');
	}
	void sandbox.veil.exited.then((code) => {
		if (stopping) return;
		process.stderr.write(`Veil stopped on its own (${code}). Its last lines:\n${sandbox.veil.output.slice(-10).join('\n')}\nStopping the sandbox.\n`);
		stop(1);
	});
} catch (error) {
	if (!stopping) {
		process.stderr.write(`The sandbox could not start: ${error instanceof Error ? error.message : String(error)}\n`);
		stop(1);
	}
}
