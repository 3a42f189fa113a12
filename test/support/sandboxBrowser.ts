import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';

/** Debian's chromium (apt-get install chromium), driven by playwright-core. */
export const CHROMIUM = '/usr/bin/chromium';

const ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

/** A headless chromium (playwright gives it a throwaway profile of its own). */
export function launchChromium(): Promise<Browser> {
	return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
}

/** Opens the sandbox's page as `person` and waits until it has drawn. */
export async function openPage(browser: Browser, url: string, person = 'member', viewport = { width: 1280, height: 760 }): Promise<Page> {
	const page = await browser.newPage({ viewport });
	page.setDefaultTimeout(20_000);
	await page.goto(new URL(`?person=${person}`, url).href);
	await page.locator('body[data-ready]').waitFor();
	return page;
}

/** Waits until the (last) element the locator finds is visible. */
export async function shown(locator: Locator): Promise<void> {
	await locator.last().waitFor({ state: 'visible' });
}

/** Waits until the locator finds nothing. */
export async function none(locator: Locator): Promise<void> {
	await expect.poll(() => locator.count(), { timeout: 10_000 }).toBe(0);
}

/** What the sandbox's model panel holds, from the server. */
export async function modelChoices(url: string): Promise<unknown> {
	return ((await (await fetch(new URL('api/model', url))).json()) as { choices: unknown }).choices;
}
