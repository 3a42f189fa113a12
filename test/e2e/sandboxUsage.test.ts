import { ApplicationCommandOptionType } from 'discord.js';
import { describe, expect, test } from 'vitest';
import { t } from '../../src/i18n/translate.js';
import { useSandbox } from '../support/sandboxProcess.js';

// Issue 38: a person in the sandbox runs /usage and /usage server:True from the page, as its requests do (the
// page's own reading of the command list, no browser), and reads Veil's answers and the Export's file there.

type Person = 'member' | 'moderator' | 'manager';

interface Channel {
	id: string;
	name: string;
	kind: 'text' | 'thread' | 'dm';
}

interface PageState {
	people: Array<{ key: string; permissions: string }>;
	channels: Channel[];
	commands: Array<{ name: string; type: number; contexts?: number[] | null; default_member_permissions?: string | null }>;
}

interface MessageView {
	id: string;
	content: string;
	ephemeral: boolean;
	thinking: boolean;
	usedBy?: { name: string; command: string };
	components: Array<{ components?: Array<{ custom_id?: string; label?: string }> }>;
	attachments?: Array<{ filename: string; url: string; size: number }>;
}

/** The page's script that lists the commands a person is offered (sandbox/web/public/commandBox.js), as the page runs it. */
interface CommandBox {
	visibleCommands(commands: PageState['commands'], person: PageState['people'][number], channel: Channel): Array<{ name: string }>;
}

describe('/usage in the sandbox', () => {
	let url: string;

	useSandbox((_sandbox, at) => {
		url = at;
	});

	const get = async <T>(path: string): Promise<T> => (await (await fetch(new URL(path, url))).json()) as T;
	const post = async <T>(path: string, body: unknown): Promise<T> => {
		const response = await fetch(new URL(path, url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
		expect(response.status, `${path}: ${await response.clone().text()}`).toBe(200);
		return (await response.json()) as T;
	};
	const state = (person: Person) => get<PageState>(`api/state?person=${person}`);
	const channelOf = async (person: Person, name: string) => (await state(person)).channels.find((c) => c.name === name) as Channel;

	/** The newest message of `channel` that `person` sees matching `check`, once Veil has finished writing it. */
	async function waitForMessage(person: Person, channel: Channel, check: (message: MessageView) => boolean, what: string): Promise<MessageView> {
		const deadline = Date.now() + 20_000;
		for (;;) {
			const { messages } = await get<{ messages: MessageView[] }>(`api/messages?person=${person}&channel=${channel.id}`);
			const found = messages.filter((m) => !m.thinking && check(m)).at(-1);
			if (found) return found;
			if (Date.now() > deadline) throw new Error(`no ${what} in #${channel.name} for ${person}: ${JSON.stringify(messages.slice(-3))}`);
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
	}

	test("is offered to every person, in the server and in the DM, by the page's own command list", async () => {
		const box = (await import(new URL('../../sandbox/web/public/commandBox.js', import.meta.url).href)) as CommandBox;
		for (const key of ['member', 'moderator', 'manager'] as const) {
			const page = await state(key);
			const person = page.people.find((p) => p.key === key) as PageState['people'][number];
			for (const channel of [page.channels.find((c) => c.name === 'general'), page.channels.find((c) => c.kind === 'dm')] as Channel[]) {
				expect(
					box.visibleCommands(page.commands, person, channel).map((c) => c.name),
					`${key} in ${channel.name}`,
				).toContain('usage');
			}
		}
	});

	test("a member's /usage counts their ask; a manager's /usage server:True counts the server's and exports it as CSV", async () => {
		const general = await channelOf('member', 'general');
		// /link through its form, then one /ask: the day's first question here.
		const opened = await post<{ modal?: { custom_id: string } }>('api/command', {
			person: 'member',
			channelId: general.id,
			name: 'link',
			options: [],
		});
		await post('api/modal', { person: 'member', customId: opened.modal?.custom_id, fields: { email: 'mia@example.com', password: 'sandbox' } });
		await waitForMessage('member', general, (m) => m.content.includes('Linked to'), 'the link made');
		await post('api/command', {
			person: 'member',
			channelId: general.id,
			name: 'ask',
			options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'How many questions have I asked?' }],
		});
		await waitForMessage('member', general, (m) => m.usedBy?.command === '/ask' && m.content.includes('How many questions'), "Veil's answer");

		// The ask is counted as its answer goes out, which the page may show first: a /usage sent the instant the answer
		// shows may come first, and is sent again, a bounded number of times.
		let mine: MessageView | undefined;
		for (let attempt = 1; attempt <= 5 && !mine?.content.includes('**1**'); attempt += 1) {
			const seen = mine?.id;
			await post('api/command', { person: 'member', channelId: general.id, name: 'usage', options: [] });
			mine = await waitForMessage('member', general, (m) => m.usedBy?.command === '/usage' && m.id !== seen, "the member's /usage");
		}
		if (!mine) throw new Error('no /usage answer');
		expect(mine.ephemeral).toBe(true);
		expect(mine.content.split('\n').slice(0, 2)).toEqual([t('en-US', 'usage.mine.title'), 'Questions today in this server: **1**']);
		expect(mine.content).toContain('`m***@example.com`');

		const managerGeneral = await channelOf('manager', 'general');
		await post('api/command', {
			person: 'manager',
			channelId: managerGeneral.id,
			name: 'usage',
			options: [{ type: ApplicationCommandOptionType.Boolean, name: 'server', value: true }],
		});
		const server = await waitForMessage('manager', managerGeneral, (m) => m.usedBy?.command === '/usage', "the manager's /usage server");
		expect(server.ephemeral).toBe(true);
		const lines = server.content.split('\n');
		expect(lines[1]).toBe('Questions: **1** · members who asked: **1**');
		expect(lines).toContain(`Busiest channels: <#${general.id}> 1`);
		// Only the one who ran it sees it: the member's view of #general has no server report.
		const { messages } = await get<{ messages: MessageView[] }>(`api/messages?person=member&channel=${general.id}`);
		expect(messages.some((m) => m.content.includes('members who asked'))).toBe(false);

		const exportButton = server.components[0]?.components?.[0];
		expect(exportButton?.label).toBe(t('en-US', 'usage.server.exportButton'));
		await post('api/button', { person: 'manager', messageId: server.id, customId: exportButton?.custom_id });
		const exported = await waitForMessage('manager', managerGeneral, (m) => (m.attachments ?? []).length > 0, 'the exported CSV');
		expect(exported.ephemeral).toBe(true);
		const file = exported.attachments?.[0];
		expect(file?.filename).toMatch(/^veil-usage-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
		const csv = await (await fetch(file?.url ?? '')).text();
		expect(csv.split('\r\n')[0]).toMatch(/^day,channel_id,channel_name,asks,shown,/);
		expect(csv).toContain(`,${general.id},general,1,1,`);
	}, 60_000);
});
