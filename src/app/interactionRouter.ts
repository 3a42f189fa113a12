import { randomUUID } from 'node:crypto';
import { MessageFlags, type ButtonInteraction, type Interaction, type ModalSubmitInteraction, type RepliableInteraction } from 'discord.js';
import type { BotContext, InteractionContext } from './context.js';
import { VeilError, type VeilErrorCode } from '../errors/veilError.js';
import { answerAlone } from '../replies/answerMessages.js';
import type { FoundHandler, Registry } from './registry.js';
import { parseCustomId } from '../discord/customId.js';
import { checkPreconditions } from '../discord/permissions.js';
import type { ComponentHandler } from './command.js';
import { placeOf } from './place.js';
import { resolveLocale, type SupportedLocale } from '../i18n/locales.js';
import { render, sentence, t } from '../i18n/translate.js';

/** The reason an interaction still running when the shutdown grace runs out is stopped with. */
class ShuttingDownError extends VeilError {
	override readonly name = 'ShuttingDownError';

	constructor() {
		super({ code: 'shutting_down', message: 'stopped by the shutdown after its grace period', answer: sentence('members.general.restarting') });
	}
}

/**
 * Routes every interaction to its command or component handler, and is the one place that turns an error into
 * the member's answer: a VeilError's own sentence, or a generic line with an incident id that matches the log.
 * It also tracks interactions in flight, so a shutdown can let them finish.
 */
export class InteractionRouter {
	readonly #registry: Registry;
	readonly #ctx: BotContext;
	readonly #inFlight = new Set<Promise<void>>();
	/** One controller per interaction in flight: a shutdown aborts each, and no long-lived signal gathers listeners. */
	readonly #controllers = new Set<AbortController>();
	#accepting = true;

	constructor(registry: Registry, ctx: BotContext) {
		this.#registry = registry;
		this.#ctx = ctx;
	}

	get inFlight(): number {
		return this.#inFlight.size;
	}

	/** Handles one interaction; never rejects. */
	dispatch(interaction: Interaction): Promise<void> {
		const running = this.#run(interaction).finally(() => this.#inFlight.delete(running));
		this.#inFlight.add(running);
		return running;
	}

	/** Stops taking new work: later interactions get a "restarting" answer instead. */
	stopAccepting(): void {
		this.#accepting = false;
	}

	/**
	 * Stops the work of every interaction in flight (upstream calls abort), so each ends with the "restarting"
	 * answer instead of being cut off in "thinking…" when the process exits.
	 */
	abortInFlight(): void {
		const reason = new ShuttingDownError();
		for (const controller of this.#controllers) controller.abort(reason);
	}

	/** Waits for the interactions in flight, at most `timeoutMs`; true when all finished. */
	async drain(timeoutMs: number): Promise<boolean> {
		let timer: NodeJS.Timeout | undefined;
		const timedOut = new Promise<false>((resolve) => {
			timer = setTimeout(() => resolve(false), timeoutMs);
		});
		const finished = Promise.allSettled([...this.#inFlight]).then(() => true as const);
		const result = await Promise.race([finished, timedOut]);
		clearTimeout(timer);
		return result;
	}

	async #run(interaction: Interaction): Promise<void> {
		if (!interaction.isRepliable()) return;
		const log = this.#ctx.logger.child({
			interactionId: interaction.id,
			userId: interaction.user.id,
			guildId: interaction.guildId ?? undefined,
			route: describeRoute(interaction),
		});
		const controller = new AbortController();
		this.#controllers.add(controller);
		// Decided once for the interaction: where it happens, and the language it is answered in.
		const locale = resolveLocale(interaction.locale);
		const ctx: InteractionContext = { ...this.#ctx, log, signal: controller.signal, place: placeOf(interaction), locale };
		const started = performance.now();
		try {
			if (!this.#accepting) {
				await interaction.reply({ content: t(locale, 'members.general.restarting'), flags: MessageFlags.Ephemeral });
				return;
			}
			await this.#route(interaction, ctx);
		} catch (error) {
			await answerError(interaction, error, locale, log);
		} finally {
			this.#controllers.delete(controller);
			log.debug({ ms: Math.round(performance.now() - started) }, 'interaction handled');
		}
	}

	/**
	 * Runs the interaction's handler, after the preconditions it declares: a handler that requires a server (and a
	 * permission there) is refused here, before it runs, and gets the interaction typed as a server's.
	 */
	async #route(interaction: RepliableInteraction, ctx: InteractionContext): Promise<void> {
		if (interaction.isChatInputCommand()) {
			const command = this.#registry.commands.get(interaction.commandName);
			if (!command)
				throw new VeilError({
					code: 'unknown_command',
					message: `unknown command ${interaction.commandName}`,
					answer: sentence('members.general.unknownCommand'),
				});
			ctx.log.debug('command received');
			if (!command.requires) return command.execute(interaction, ctx);
			checkPreconditions(interaction, command.requires);
			return command.execute(interaction, ctx);
		}
		if (interaction.isMessageContextMenuCommand()) {
			const command = this.#registry.messageCommands.get(interaction.commandName);
			if (!command)
				throw new VeilError({
					code: 'unknown_command',
					message: `unknown message command ${interaction.commandName}`,
					answer: sentence('members.general.unknownCommand'),
				});
			ctx.log.debug('message command received');
			if (!command.requires) return command.execute(interaction, ctx);
			checkPreconditions(interaction, command.requires);
			return command.execute(interaction, ctx);
		}
		if (interaction.isButton()) return runComponent(interaction, this.#registry.findButton(interaction.customId), ctx);
		if (interaction.isModalSubmit()) return runComponent(interaction, this.#registry.findModal(interaction.customId), ctx);
		throw new VeilError({
			code: 'unsupported_interaction',
			message: `unsupported interaction type ${interaction.type}`,
			answer: sentence('members.general.unsupportedInteraction'),
		});
	}
}

/** Runs the handler found for a button or a modal, after the preconditions it declares. */
function runComponent<I extends ButtonInteraction | ModalSubmitInteraction>(
	interaction: I,
	found: FoundHandler<ComponentHandler<I>> | undefined,
	ctx: InteractionContext,
): Promise<void> {
	if (!found) throw unknownComponent(interaction.customId);
	ctx.log.debug(interaction.isButton() ? 'button received' : 'modal received');
	const { handler, payload } = found;
	if (!handler.requires) return handler.handle(interaction, payload, ctx);
	checkPreconditions(interaction, handler.requires);
	return handler.handle(interaction, payload, ctx);
}

function unknownComponent(customId: string): VeilError {
	return new VeilError({
		code: 'unknown_component',
		message: `unknown component ${customId.slice(0, 40)}`,
		answer: sentence('members.general.unknownComponent'),
	});
}

function describeRoute(interaction: Interaction): string {
	if (interaction.isChatInputCommand()) {
		const sub = interaction.options.getSubcommand(false);
		return sub ? `/${interaction.commandName} ${sub}` : `/${interaction.commandName}`;
	}
	if (interaction.isMessageContextMenuCommand()) return `message command ${interaction.commandName}`;
	if (interaction.isButton() || interaction.isModalSubmit()) return parseCustomId(interaction.customId).prefix;
	return `type ${interaction.type}`;
}

/**
 * Whether the interaction's answer updates a message in place: a component's, or a form's deferred as an update of
 * the message it came from (which, unlike a deferred reply, fixes no visibility).
 */
function updatesInPlace(interaction: RepliableInteraction): boolean {
	return interaction.isMessageComponent() || (interaction.deferred && interaction.ephemeral === null);
}

/**
 * The error answers an operator should look at: a service, the store or Discord failing, or Veil meeting what it
 * does not know. Every other code is an ordinary refusal (an empty prompt, a limit, a missing permission): info.
 */
const OPERATOR_CODES: ReadonlySet<VeilErrorCode> = new Set<VeilErrorCode>([
	'file_not_cdn',
	'file_unavailable',
	'login_unavailable',
	'login_unreadable',
	'release_dm_failed',
	'release_failed',
	'seal_invalid',
	'shutting_down',
	'store_unavailable',
	'store_write_unconfirmed',
	'unknown_command',
	'unknown_component',
	'unsupported_interaction',
	'upstream_breaker_open',
	'upstream_invalid',
	'upstream_rejected',
	'upstream_unavailable',
]);

/**
 * Answers the member with what went wrong, in their language, by the interaction's state: reply, edit the deferral
 * (or, for a refusal to them alone, put a private answer in its place), or follow up.
 */
async function answerError(
	interaction: RepliableInteraction,
	error: unknown,
	locale: SupportedLocale,
	log: InteractionContext['log'],
): Promise<void> {
	let content: string;
	if (error instanceof VeilError) {
		content = render(locale, error.answer);
		if (OPERATOR_CODES.has(error.code)) log.warn({ err: error, code: error.code }, 'interaction ended with an error answer');
		else log.info({ code: error.code }, 'interaction ended with a refusal');
	} else {
		const incident = randomUUID().slice(0, 8);
		content = t(locale, 'members.general.incident', { incident });
		log.error({ err: error, incident }, 'interaction failed');
	}
	try {
		if (interaction.deferred && !interaction.replied && !updatesInPlace(interaction)) {
			// A refusal for the member alone must not turn a public "thinking…" into a public answer.
			if (error instanceof VeilError && error.private && interaction.ephemeral !== true) await answerAlone(interaction, false, { content });
			else
				await interaction.editReply({ content, embeds: [], components: [], files: [] }).catch(async (editFailure: unknown) => {
					// The edit route may be what failed (a long rate limit on it): a follow-up, its own route, takes the
					// place of "thinking…" instead.
					log.warn({ err: editFailure }, 'could not edit the error answer in; following up instead');
					await interaction.followUp({ content });
				});
		} else if (interaction.replied || interaction.deferred) {
			// A deferred update (a button's, or a form's on a message) must not overwrite the message it is on (a
			// moderator's view, a list page): the error goes as a message of its own, and after a button's deferred
			// reply it takes the place of "thinking…".
			await interaction.followUp({ content, flags: MessageFlags.Ephemeral });
		} else {
			await interaction.reply({ content, flags: MessageFlags.Ephemeral });
		}
	} catch (answerFailure) {
		log.error({ err: answerFailure }, 'could not deliver the error answer');
	}
}
