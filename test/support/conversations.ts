import { type APIApplicationCommandInteractionDataOption, type APIUser, ApplicationCommandOptionType } from 'discord.js';
import type { EmulatorMessage, InteractionHandle, InteractionState } from '../../sandbox/discord/emulator.js';
import type { Harness } from './harness.js';
import type { UpstreamRequest } from './upstreamStandIn.js';

// Shared steps of the conversation end-to-end tests: asking, pressing Follow up and filling its form as a member,
// and reading what went upstream.

/** One content item of a generation body. */
export interface Content {
	role?: string;
	parts: Array<{ text: string }>;
}

/** The `contents` of a generation request. */
export function contentsOf(request: UpstreamRequest | undefined): Content[] {
	return (request?.json as { contents: Content[] } | undefined)?.contents ?? [];
}

/** A body's turns as `role:text`, for comparing whole conversations at a glance. */
export function turnsOf(request: UpstreamRequest | undefined): string[] {
	return contentsOf(request).map((content) => `${content.role ?? '(none)'}:${content.parts.map((part) => part.text).join('')}`);
}

/** The stand-in's answer to any body: echoes the last prompt, so each answer names what it answers. */
export function echoLastPrompt(request: UpstreamRequest): string {
	return `Answer to: ${contentsOf(request).at(-1)?.parts[0]?.text ?? ''}`;
}

/** Every message the member ends up seeing for one interaction: the edited original, then the follow-ups after it. */
export function answerMessages(state: InteractionState): EmulatorMessage[] {
	const messages = state.original ? [state.original] : [];
	for (const followUp of state.followUps) if (followUp.id !== state.original?.id) messages.push(followUp);
	return messages;
}

/** The custom_ids of the buttons on one message. */
export function buttonsOf(message: EmulatorMessage | undefined): string[] {
	const ids: string[] = [];
	for (const row of (message?.components ?? []) as Array<{ components?: Array<{ custom_id?: string }> }>) {
		for (const component of row.components ?? []) if (component.custom_id) ids.push(component.custom_id);
	}
	return ids;
}

/** The Follow up button's custom_id on an answer's last message; throws when it has none. */
export function followUpIdOf(state: InteractionState): string {
	const id = buttonsOf(answerMessages(state).at(-1)).find((customId) => customId.startsWith('ask:followup:'));
	if (!id) throw new Error(`no Follow up button on the answer's last message: ${JSON.stringify(answerMessages(state).at(-1)?.components)}`);
	return id;
}

/**
 * Waits until the bot has finished with the interaction (its handler returned: every part of a split answer sent),
 * as the bot's own log says, and returns what the member then sees.
 */
export async function settled(harness: Harness, handle: InteractionHandle): Promise<InteractionState> {
	await handle.waitForAnswer(10_000);
	const finished = (line: string) => line.includes(`"interactionId":"${handle.id}"`) && line.includes('"msg":"interaction handled"');
	await harness.discord.waitUntil(() => harness.logs.some(finished), `the bot to finish interaction ${handle.id}`, 10_000);
	// An ask ends once its answer is out, its conversation still waiting for its batch: written now, so what the test
	// reads next (the SQLite file, another process) finds it, as a Follow up pressed meanwhile would.
	await harness.bot.context.conversations.flush();
	return handle.state();
}

/** Runs /ask as `user` and waits for the whole answer. */
export function ask(harness: Harness, user: APIUser, prompt: string, options: { private?: boolean } = {}): Promise<InteractionState> {
	const raw: APIApplicationCommandInteractionDataOption[] = [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: prompt }];
	if (options.private !== undefined) raw.push({ type: ApplicationCommandOptionType.Boolean, name: 'private', value: options.private });
	return settled(harness, harness.discord.slashCommand({ name: 'ask', options: raw, user }));
}

/** What pressing Follow up did: the press's own answer (a form, or a refusal), and, when a form opened, its submit's. */
export interface FollowUp {
	readonly press: InteractionState;
	readonly answer: InteractionState | undefined;
}

/** Presses Follow up on the last message of `answered` as `user`, and, when the form opens, sends `prompt` in it. */
export async function followUp(harness: Harness, answered: InteractionState, user: APIUser, prompt: string): Promise<FollowUp> {
	const message = answerMessages(answered).at(-1) as EmulatorMessage;
	const press = await harness.discord.button({ customId: followUpIdOf(answered), message, user }).waitForAnswer();
	const form = press.modal;
	if (!form) return { press, answer: undefined };
	const answer = await settled(harness, harness.discord.modalSubmit({ customId: form.custom_id, fields: { prompt }, user }));
	return { press, answer };
}

/** Like {@link followUp}, for a form that must open: the submit's answer. */
export async function followUpAnswer(harness: Harness, answered: InteractionState, user: APIUser, prompt: string): Promise<InteractionState> {
	const { press, answer } = await followUp(harness, answered, user, prompt);
	if (!answer) throw new Error(`Follow up opened no form; it answered: ${press.original?.content}`);
	return answer;
}

/** The generation requests that arrived after `before` of them. */
export function generationRequestsSince(harness: Harness, before: number): UpstreamRequest[] {
	return harness.upstream.requests.slice(before).filter((request) => request.endpoint === 'generate');
}
