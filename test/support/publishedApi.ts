import type { ApiViolation, DiscordEmulator } from '../../sandbox/discord/emulator.js';

/** What a test failed on: each refusal of Discord's published API, where it happened and why. */
export function describeApiViolations(violations: readonly ApiViolation[]): string {
	const lines = violations.flatMap(({ where, problems }) => problems.map((problem) => `  ${where}: ${problem}`));
	return `Discord's published API refuses what passed through the local Discord:\n${lines.join('\n')}`;
}

/** Throws when the emulator recorded a refusal (see sandbox/discord/apiSpec.ts), taking what it recorded. */
export function assertNoApiViolations(discord: DiscordEmulator): void {
	const violations = discord.takeApiViolations();
	if (violations.length > 0) throw new Error(describeApiViolations(violations));
}
