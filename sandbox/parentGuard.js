/* global process, setTimeout */
// Loaded with `--import` into every process the sandbox starts (the build, deploy-commands, Veil). They share an IPC
// channel with the sandbox, which closes however the sandbox ends, SIGKILL included: the process then stops as a
// SIGTERM would stop it (Veil lets its interactions finish, closes its store and exits), and is made to exit if it
// has not within 15 s. A process left running without its sandbox would hold a bot nobody can see or stop.

if (process.channel) {
	process.once('disconnect', () => {
		setTimeout(() => process.exit(1), 15_000).unref();
		process.kill(process.pid, 'SIGTERM');
	});
	// Listening for 'disconnect' holds the channel open: unreferenced, it never keeps a process alive by itself.
	process.channel.unref();
}
