import { afterEach } from 'vitest';
import { DiscordEmulator } from '../../sandbox/discord/emulator.js';
import { describeApiViolations } from './publishedApi.js';

// The e2e project's setup file: a test during which the local Discord saw something Discord's published API refuses
// (a request of the bot, a payload of its own) fails, naming it.
afterEach(() => {
	const violations = [...DiscordEmulator.started].flatMap((discord) => discord.takeApiViolations());
	for (const discord of DiscordEmulator.started) if (discord.stopped) DiscordEmulator.started.delete(discord);
	if (violations.length > 0) throw new Error(describeApiViolations(violations));
});
