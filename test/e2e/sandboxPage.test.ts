import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { t } from '../../src/i18n/translate.js';
import { launchChromium, modelChoices, none, openPage, shown } from '../support/sandboxBrowser.js';
import { startSandboxProcess, type SandboxProcess } from '../support/sandboxProcess.js';

// Issue 35: the sandbox's page as a new user met it. Each test drives the page in chromium against a real sandbox.

const SHOTS = resolve(import.meta.dirname, '../../test-results/sandbox-page');

interface Command {
	name: string;
	type: number;
	name_localizations?: Record<string, string> | null;
	options?: Array<{ name: string; type: number; name_localizations?: Record<string, string> | null }>;
}

describe('the sandbox page (issue 35)', () => {
	let sandbox: SandboxProcess;
	let url: string;
	let browser: Browser;

	beforeAll(async () => {
		sandbox = startSandboxProcess({ SANDBOX_PORT: '0' });
		url = await sandbox.ready();
		browser = await launchChromium();
		mkdirSync(SHOTS, { recursive: true });
	}, 180_000);

	afterAll(async () => {
		await browser?.close();
		sandbox?.kill();
	});

	/** The command box's form after typing `text` and Enter. */
	async function typeCommand(page: Page, text: string): Promise<void> {
		await page.locator('#composer-input').fill(text);
		await page.locator('#composer-input').press('Enter');
	}

	test('1: a typed subcommand and its options are read as Discord reads them, and no subcommand is ever guessed', async () => {
		const moderator = await openPage(browser, url, 'moderator');
		await typeCommand(moderator, '/flagged view #2');
		const moderatorForm = moderator.locator('#command-form');
		await expect.poll(() => moderatorForm.locator('select[name="__subcommand"]').inputValue()).toBe('flagged view');
		expect(await moderatorForm.locator('.command-fields input[name="id"]').inputValue()).toBe('#2');
		await moderator.close();

		const page = await openPage(browser, url, 'manager');
		const form = page.locator('#command-form');
		const picker = form.locator('select[name="__subcommand"]');

		// Enter on a subcommand with no options opens that subcommand, not the first one (modlog, which would turn the mod-log off).
		await typeCommand(page, '/settings instructions');
		await expect.poll(() => picker.inputValue()).toBe('settings instructions');
		await shown(form.locator('.command-fields input[name="text"]'));
		await none(form.locator('.command-fields [name="__subcommand"] option:checked', { hasText: 'modlog' }));

		// A command typed without its subcommand gets nothing chosen, and Send sends nothing until one is.
		const before = await messageCount(url, 'manager', 'staff');
		await typeCommand(page, '/settings');
		await expect.poll(() => picker.inputValue()).toBe('');
		await form.locator('button[type="submit"]').click();
		await page.waitForTimeout(1000);
		expect(await messageCount(url, 'manager', 'staff')).toBe(before);
		expect(await form.isVisible()).toBe(true);

		await typeCommand(page, '/ask prompt:What is a cat? private:true');
		await expect.poll(() => form.locator('input[name="prompt"]').inputValue()).toBe('What is a cat?');
		expect(await form.locator('select[name="private"]').inputValue()).toBe('true');
		// Past the option's own limit the text is kept and the counter says so; nothing is sent (item 11).
		const state = (await (await fetch(new URL('api/state?person=manager', url))).json()) as { commands: Command[] };
		const prompt = state.commands.find((c) => c.name === 'ask' && c.type === 1)?.options?.find((o) => o.name === 'prompt') as { max_length?: number };
		const max = prompt.max_length as number;
		await form.locator('input[name="prompt"]').fill('x'.repeat(max + 5));
		await shown(form.locator('.counter.over', { hasText: `${max + 5} / ${max}` }));
		expect((await form.locator('input[name="prompt"]').inputValue()).length).toBe(max + 5);
		await form.locator('button[type="submit"]').click();
		await page.waitForTimeout(500);
		expect(await form.isVisible()).toBe(true);
		await form.locator('input[name="prompt"]').fill('What is a cat?');
		await page.screenshot({ path: join(SHOTS, 'typed-subcommand.png') });
		await page.close();
	}, 60_000);

	test('8: commands are offered as Discord offers them; right-click opens Apps; the asked-about message stays in view', async () => {
		const suggested = async (page: Page) => {
			await page.locator('#composer-input').fill('/');
			return page.locator('.suggestion').evaluateAll((items) => items.map((i) => i.getAttribute('data-command')));
		};
		const member = await openPage(browser, url, 'member');
		const memberHas = await suggested(member);
		expect(memberHas).toContain('ask');
		expect(memberHas.some((c) => /^(flagged|settings)/.test(c ?? ''))).toBe(false);
		await member.locator('.channel[data-channel="Veil"]').click();
		expect((await suggested(member)).some((c) => /^(flagged|settings)/.test(c ?? ''))).toBe(false);
		const moderator = await openPage(browser, url, 'moderator');
		const moderatorHas = await suggested(moderator);
		expect(moderatorHas).toContain('flagged view');
		expect(moderatorHas.some((c) => c?.startsWith('settings'))).toBe(false);
		const manager = await openPage(browser, url, 'manager');
		expect(await suggested(manager)).toContain('settings instructions');
		await Promise.all([moderator.close(), manager.close()]);

		// Right-click on a message: the Apps menu, as hovering gives it.
		await member.locator('.channel[data-channel="general"]').click();
		const question = member.locator('.message', { hasText: 'What is a good name for a grey cat?' }).first();
		await question.click({ button: 'right' });
		await shown(member.getByRole('menuitem', { name: 'Ask Veil' }));

		// Enough messages that the list scrolls, then Ask Veil on the first: its form leaves it in view.
		await linkByApi(url, 'member');
		for (let i = 0; i < 14; i += 1)
			await member.request.post(new URL('api/post', url).href, {
				data: { person: 'moderator', channelId: await channelId(url, 'general'), content: `Filler ${i}` },
			});
		await shown(member.locator('.message', { hasText: 'Filler 13' }));
		// The list may still be drawing the last posts: a message replaced while it scrolls is looked up again.
		for (let attempt = 1; ; attempt += 1) {
			try {
				await question.scrollIntoViewIfNeeded({ timeout: 5_000 });
				break;
			} catch (error) {
				if (attempt >= 5) throw error;
			}
		}
		await question.click({ button: 'right' });
		await member.getByRole('menuitem', { name: 'Ask Veil' }).click();
		await shown(member.locator('dialog#modal'));
		await member.waitForTimeout(500);
		expect(await inView(member, question)).toBe(true);
		await member.screenshot({ path: join(SHOTS, 'ask-veil-form.png') });
		await member.locator('#modal-cancel').click();
		await member.close();
	}, 60_000);

	test("3: the model panel is the server's, pushed to every tab; a change sends only what changed", async () => {
		const first = await openPage(browser, url, 'member');
		const second = await openPage(browser, url, 'member');
		await first.locator('input[name="rating"][value="one"]').check();
		await first.locator('#model-level').selectOption('HIGH');
		await expect.poll(() => second.locator('input[name="rating"][value="one"]').isChecked()).toBe(true);
		await second.locator('#model-delay').fill('1200');
		await second.locator('#model-panel h2').click();
		await expect.poll(() => modelChoices(url)).toMatchObject({ rating: { level: 'HIGH' }, delayMs: 1200 });
		await expect.poll(() => first.locator('#model-delay').inputValue()).toBe('1200');
		// Back to clear, from the first tab: the second follows.
		await first.locator('input[name="rating"][value="clear"]').check();
		await expect.poll(() => second.locator('input[name="rating"][value="clear"]').isChecked()).toBe(true);
		await expect.poll(() => modelChoices(url)).toMatchObject({ rating: null, delayMs: 1200 });
		await Promise.all([first.close(), second.close()]);
	}, 60_000);

	test("4: a member's own message shows at once after Enter, and leaves no unread dot", async () => {
		const page = await openPage(browser, url, 'member');
		await page.locator('#composer-input').fill('Hello from Mia');
		await page.locator('#composer-input').press('Enter');
		await shown(page.locator('.message', { hasText: 'Hello from Mia' }));
		await page.locator('.channel[data-channel="Veil"]').click();
		await page.locator('.channel[data-channel="general"]').click();
		await page.waitForTimeout(500);
		expect(await page.locator('.channel.news').count()).toBe(0);
		// Another tab of the same person saw it too, and nothing there is news either.
		const other = await openPage(browser, url, 'member');
		await shown(other.locator('.message', { hasText: 'Hello from Mia' }));
		expect(await other.locator('.channel.news').count()).toBe(0);
		await Promise.all([page.close(), other.close()]);
	}, 60_000);

	test('2: from 360 px up the chat keeps its width, nothing scrolls sideways, and the channels and the panel fold away', async () => {
		const page = await openPage(browser, url, 'moderator');
		for (const width of [1280, 800, 400, 360]) {
			await page.setViewportSize({ width, height: width === 800 ? 600 : 760 });
			await typeCommand(page, '/flagged view #1');
			await shown(page.locator('#command-form'));
			// A string, evaluated in the page: this project's types have no DOM.
			const layout = await page.evaluate<Layout>(LAYOUT);
			expect(layout.sideways, `${width}px scrolls sideways`).toBeLessThanOrEqual(0);
			expect(layout.messages, `${width}px: the chat's width`).toBeGreaterThanOrEqual(Math.min(width - 20, 560));
			expect(layout.form?.right ?? Infinity, `${width}px: the form inside the window`).toBeLessThanOrEqual(width);
			if (layout.panelShown) expect(layout.form?.right ?? Infinity, `${width}px: the form beside the panel`).toBeLessThanOrEqual(layout.panel.left);
			await page.screenshot({ path: join(SHOTS, `width-${width}.png`) });
			await page.locator('#command-form button.secondary').click();
		}
		// At 400 px the channels are a drawer: open it, pick #mod-log, and it closes again.
		await page.setViewportSize({ width: 400, height: 760 });
		expect(await page.locator('.channel[data-channel="mod-log"]').isVisible()).toBe(false);
		await page.locator('#toggle-channels').click();
		await shown(page.locator('.channel[data-channel="mod-log"]'));
		await page.screenshot({ path: join(SHOTS, 'width-400-channels.png') });
		await page.locator('.channel[data-channel="mod-log"]').click();
		await expect.poll(() => page.locator('#channel-name').textContent()).toBe('# mod-log');
		await expect.poll(() => page.locator('.channel[data-channel="mod-log"]').isVisible()).toBe(false);
		await page.locator('#toggle-model').click();
		await shown(page.locator('#model-delay'));
		await page.screenshot({ path: join(SHOTS, 'width-400-model.png') });
		await page.close();
	}, 60_000);

	test("9: a member's language: Veil answers in it, and the command box shows the command names a French client shows", async () => {
		const page = await openPage(browser, url, 'member');
		await page.locator('#person-locale').selectOption('fr');
		const state = (await (await fetch(new URL('api/state?person=member', url))).json()) as { commands: Command[] };
		const link = state.commands.find((c) => c.name === 'link' && c.type === 1) as Command;
		const french = link.name_localizations?.fr ?? 'link';
		await page.locator('#composer-input').fill(`/${french.slice(0, 2)}`);
		await shown(page.locator('.suggestion', { hasText: `/${french}` }));
		await page
			.locator('.suggestion', { hasText: `/${french}` })
			.first()
			.click();
		await page.locator('#command-form button[type="submit"]').click();
		await expect.poll(() => page.locator('#modal-title').textContent()).toBe(t('fr', 'members.link.formTitle'));
		await page.locator('#modal-cancel').click();
		await page.locator('#person-locale').selectOption('en-US');
		await page.close();
	}, 60_000);
});

interface Box {
	left: number;
	right: number;
}
interface Layout {
	sideways: number;
	messages: number;
	form?: Box;
	panelShown: boolean;
	panel: Box;
}
/** How the page is laid out: how far it scrolls sideways, the chat's width, the command form's and the panel's boxes. */
const LAYOUT = `(() => {
	const box = (id) => document.getElementById(id)?.getBoundingClientRect();
	const panel = document.getElementById('model-panel');
	const style = getComputedStyle(panel);
	const panelBox = panel.getBoundingClientRect();
	const panelShown = style.visibility !== 'hidden' && style.display !== 'none' && panelBox.left < innerWidth;
	return { sideways: document.documentElement.scrollWidth - innerWidth, messages: box('messages')?.width ?? 0, form: box('command-form'), panelShown, panel: panelBox };
})()`;

/** Links a person through the page's API, as /link's form would: Ask Veil and /ask need it. */
async function linkByApi(url: string, person: string): Promise<void> {
	const post = async (path: string, body: unknown) =>
		(
			await fetch(new URL(path, url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
		).json() as Promise<{
			modal?: { custom_id: string };
		}>;
	const opened = await post('api/command', { person, channelId: await channelId(url, 'general'), name: 'link', options: [] });
	await post('api/modal', { person, customId: opened.modal?.custom_id, fields: { email: `${person}@example.com`, password: 'sandbox' } });
}

async function channelId(url: string, name: string): Promise<string> {
	const state = (await (await fetch(new URL('api/state?person=manager', url))).json()) as { channels: Array<{ id: string; name: string }> };
	return state.channels.find((c) => c.name === name)?.id as string;
}

async function messageCount(url: string, person: string, channel: string): Promise<number> {
	const id = await channelId(url, channel);
	return ((await (await fetch(new URL(`api/messages?person=${person}&channel=${id}`, url))).json()) as { messages: unknown[] }).messages.length;
}

/** Whether the element is inside the messages list's visible area. */
async function inView(page: Page, locator: ReturnType<Page['locator']>): Promise<boolean> {
	const [box, list] = await Promise.all([locator.boundingBox(), page.locator('#messages').boundingBox()]);
	return box !== null && list !== null && box.y >= list.y - 1 && box.y + Math.min(box.height, 40) <= list.y + list.height + 1;
}
