import {
	LabelBuilder,
	MessageFlags,
	ModalBuilder,
	TextInputBuilder,
	TextInputStyle,
	type ButtonInteraction,
	type ChatInputCommandInteraction,
	type ModalSubmitInteraction,
} from 'discord.js';
import { z } from 'zod';
import { button, modal, type Command } from '../src/app/command.js';
import type { InteractionContext } from '../src/app/context.js';
import { customIds } from '../src/app/customIds.js';
import { UserInputError } from '../src/errors/veilError.js';
import type { SupportedLocale } from '../src/i18n/locales.js';
import { sentence, t } from '../src/i18n/translate.js';
import { linkOutcomeOf } from '../src/operations/metrics.js';
import { linkData } from './definitions/link.js';

const EMAIL_MAX_LENGTH = 254;
const PASSWORD_MAX_LENGTH = 256;

/**
 * The private form, in the member's language. Discord has no masked input, so the labels say who sees it and that
 * the password is not kept.
 */
function linkModal(locale: SupportedLocale): ModalBuilder {
	return new ModalBuilder()
		.setCustomId(customIds.link.submit.build())
		.setTitle(t(locale, 'members.link.formTitle'))
		.addLabelComponents(
			new LabelBuilder()
				.setLabel(t(locale, 'members.link.emailLabel'))
				.setDescription(t(locale, 'members.link.emailHint'))
				.setTextInputComponent(
					new TextInputBuilder().setCustomId('email').setStyle(TextInputStyle.Short).setMaxLength(EMAIL_MAX_LENGTH).setRequired(true),
				),
			new LabelBuilder()
				.setLabel(t(locale, 'members.link.passwordLabel'))
				.setDescription(t(locale, 'members.link.passwordHint'))
				.setTextInputComponent(
					new TextInputBuilder().setCustomId('password').setStyle(TextInputStyle.Short).setMaxLength(PASSWORD_MAX_LENGTH).setRequired(true),
				),
		);
}

async function execute(interaction: ChatInputCommandInteraction, ctx: InteractionContext): Promise<void> {
	await interaction.showModal(linkModal(ctx.locale));
}

async function openFromButton(interaction: ButtonInteraction, _payload: unknown, ctx: InteractionContext): Promise<void> {
	await interaction.showModal(linkModal(ctx.locale));
}

const emailSchema = z.email().max(EMAIL_MAX_LENGTH);

/**
 * The modal's submit. Whoever submits it is linked: the custom_id names nobody, so one member can never link
 * another. The password lives only in this function's arguments to the login call.
 */
async function submit(interaction: ModalSubmitInteraction, ctx: InteractionContext): Promise<void> {
	await interaction.deferReply({ flags: MessageFlags.Ephemeral });
	const email = emailSchema.safeParse(interaction.fields.getTextInputValue('email').trim());
	if (!email.success) throw new UserInputError({ answer: sentence('members.link.badEmail'), code: 'link_bad_email' });
	const password = interaction.fields.getTextInputValue('password');
	if (password.length === 0 || password.length > PASSWORD_MAX_LENGTH) {
		throw new UserInputError({ answer: sentence('members.link.badPassword', { count: PASSWORD_MAX_LENGTH }), code: 'link_bad_password' });
	}
	ctx.admission.link.take(interaction.user.id);
	const credentials = await ctx.login.login(email.data, password, { signal: ctx.signal });
	const masked = await ctx.accounts.save(interaction.user.id, email.data, credentials);
	ctx.log.info('account linked');
	await interaction.editReply({
		content: t(ctx.locale, 'members.link.linked', { maskedEmail: masked }),
	});
}

export default {
	data: linkData,
	execute,
	// The link-first answer's button, which the shared ask path shows.
	buttons: [button({ id: customIds.link.open, handle: openFromButton })],
	modals: [
		modal({
			id: customIds.link.submit,
			// Counted by how it ended (see the README's metrics).
			handle: (interaction, _payload, ctx) =>
				submit(interaction, ctx).then(
					() => ctx.metrics.recordLink('linked'),
					(error: unknown) => {
						ctx.metrics.recordLink(linkOutcomeOf(error));
						throw error;
					},
				),
		}),
	],
} satisfies Command;
