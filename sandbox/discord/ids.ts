import { randomBytes } from 'node:crypto';

const DISCORD_EPOCH = 1_420_070_400_000n;
let lastMs = 0n;
let increment = 0n;

/**
 * A fresh, strictly increasing Discord snowflake. Monotonic even if the clock is faked backwards, so ids keep
 * sorting in creation order the way discord.js (and real Discord) expect.
 */
export function snowflake(): string {
	let ms = BigInt(Date.now()) - DISCORD_EPOCH;
	if (ms <= lastMs) {
		ms = lastMs;
		increment += 1n;
		if (increment > 4095n) {
			ms += 1n;
			increment = 0n;
		}
	} else {
		increment = 0n;
	}
	lastMs = ms;
	return ((ms << 22n) | (1n << 17n) | increment).toString();
}

/** A token shaped like a real one (base64 id, time, hmac): discord.js splits it on dots when it logs. */
export function makeBotToken(botId: string): string {
	return `${Buffer.from(botId).toString('base64url')}.${randomBytes(4).toString('base64url')}.${randomBytes(27).toString('base64url')}`;
}

export function makeInteractionToken(): string {
	return `aW50ZXJhY3Rpb246${randomBytes(48).toString('base64url')}`;
}
