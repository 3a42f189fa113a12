import { describe, expect, it } from 'vitest';
import { Instructions } from '../../../src/settings/instructions.js';
import { MemoryAtomicStore } from '../../../src/storage/memoryAtomicStore.js';

const GUILD = '100000000000000002';
const FORUM = '100000000000000010';
const POST = '100000000000000011';
const TEXT = '100000000000000020';

describe('the instructions an ask goes with', () => {
	it("reach a thread from its parent channel: a forum's post, a text channel's thread", async () => {
		const instructions = new Instructions(new MemoryAtomicStore(), 10_000);
		await instructions.set(GUILD, undefined, 'Server-wide.');
		await instructions.set(GUILD, FORUM, 'Forum only.');
		expect(await instructions.forAsk(GUILD, POST, FORUM)).toBe('Forum only.');
		expect(await instructions.forAsk(GUILD, POST, TEXT)).toBe('Server-wide.');
		expect(await instructions.forAsk(GUILD, FORUM)).toBe('Forum only.');
	});

	it("take a thread's own over its parent's, and the server's where neither has any", async () => {
		const instructions = new Instructions(new MemoryAtomicStore(), 10_000);
		await instructions.set(GUILD, FORUM, 'Forum only.');
		await instructions.set(GUILD, POST, 'This post only.');
		expect(await instructions.forAsk(GUILD, POST, FORUM)).toBe('This post only.');
		expect(await instructions.forAsk(GUILD, TEXT)).toBeUndefined();
		expect(await instructions.forAsk(GUILD, '__proto__')).toBeUndefined();
	});
});
