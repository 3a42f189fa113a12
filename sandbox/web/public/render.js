/* global document */
// Drawing Discord's messages, embeds, buttons and forms as plain DOM: no framework, nothing from the network.

/** An element with attributes and children; strings become text nodes (never HTML). */
export function h(tag, attributes = {}, ...children) {
	const element = document.createElement(tag);
	for (const [name, value] of Object.entries(attributes)) {
		if (value === undefined || value === false || value === null) continue;
		if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
		else if (name === 'className') element.className = value;
		else element.setAttribute(name, value === true ? '' : String(value));
	}
	for (const child of children.flat()) if (child !== undefined && child !== null && child !== false) element.append(child);
	return element;
}

const MESSAGE_LINK = /^https:\/\/(?:ptb\.|canary\.)?discord\.com\/channels\/(?:\d+|@me)\/(\d+)\/(\d+)$/;

/**
 * Discord's markdown, the part Veil uses: code blocks, **bold**, *italic*, `code`, [links](https://…), `-# ` small
 * lines, `## ` headings, `> ` quotes and `- ` list items, mentions of people and channels, and timestamps. Built as
 * nodes, so nothing in a message becomes HTML.
 */
export function markdown(text, names) {
	const out = [];
	for (const [index, part] of text.split(/```(?:[a-z]*\n)?([\s\S]*?)```/).entries()) {
		if (index % 2 === 1) out.push(h('pre', {}, part));
		else out.push(...part.split('\n').flatMap((line, n) => [n > 0 ? h('br') : '', ...inline(line, names)]));
	}
	return out;
}

function inline(line, names) {
	if (line.startsWith('-# ')) return [h('small', { className: 'subtext' }, inline(line.slice(3), names))];
	const heading = /^(#{1,3}) (.*)$/.exec(line);
	if (heading) return [h('strong', { className: `heading h${heading[1].length}` }, inline(heading[2], names))];
	if (line.startsWith('> ')) return [h('span', { className: 'quote' }, inline(line.slice(2), names))];
	if (line.startsWith('- ')) return [h('span', { className: 'bullet' }, '• ', inline(line.slice(2), names))];
	const out = [];
	const pattern = /(\*\*[^*]+\*\*|`[^`]+`|\[[^\]]+\]\(https?:[^)\s]+\)|\*[^*\s][^*]*\*|_[^_\s][^_]*_|<@!?\d+>|<#\d+>|<t:\d+(?::[a-zA-Z])?>)/g;
	let last = 0;
	for (const match of line.matchAll(pattern)) {
		if (match.index > last) out.push(line.slice(last, match.index));
		out.push(token(match[0], names));
		last = match.index + match[0].length;
	}
	if (last < line.length) out.push(line.slice(last));
	return out;
}

function token(raw, names) {
	if (raw.startsWith('**')) return h('strong', {}, inline(raw.slice(2, -2), names));
	if (raw.startsWith('`')) return h('code', {}, raw.slice(1, -1));
	if (raw.startsWith('[')) {
		const [, label, href] = /^\[([^\]]+)\]\((.+)\)$/.exec(raw);
		// A link to a message of this server (a notice, a case) is a place on this page, as Discord's client opens it.
		const own = MESSAGE_LINK.exec(href);
		if (own && names.jump)
			return h(
				'a',
				{ href: `#message-${own[2]}`, className: 'jump', onclick: (event) => (event.preventDefault(), names.jump(own[1], own[2])) },
				label,
			);
		return h('a', { href, target: '_blank', rel: 'noreferrer' }, label);
	}
	if (raw.startsWith('<@')) return h('span', { className: 'mention' }, `@${names.people.get(raw.replace(/\D/g, '')) ?? 'someone'}`);
	if (raw.startsWith('<#')) return h('span', { className: 'mention' }, `#${names.channels.get(raw.replace(/\D/g, '')) ?? 'a channel'}`);
	if (raw.startsWith('<t:')) return h('time', {}, new Date(Number(raw.slice(3).split(/[:>]/)[0]) * 1000).toLocaleString());
	return h('em', {}, raw.slice(1, -1));
}

/** Each person a colour of their own, from their id, as Discord's default avatars differ. */
const AVATAR_COLORS = ['#5865f2', '#3ba55c', '#faa61a', '#ed4245', '#eb459e', '#747f8d', '#00a8a8'];
function avatarColor(author, names) {
	if (author.bot) return 'var(--accent)';
	const index = names.order?.indexOf(author.id) ?? -1;
	if (index >= 0) return AVATAR_COLORS[1 + (index % (AVATAR_COLORS.length - 1))];
	let hash = 0;
	for (const char of author.id) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
	return AVATAR_COLORS[1 + (hash % (AVATAR_COLORS.length - 1))];
}

const BUTTON_STYLES = { 1: 'primary', 2: 'secondary', 3: 'success', 4: 'danger', 5: 'link' };

/** One message of the channel. `actions` carry the clicks back: button(message, customId), apps(message, anchor). */
export function renderMessage(message, names, actions) {
	const initial = message.author.name.slice(0, 1).toUpperCase();
	names.jump = actions.jump;
	return h(
		'li',
		{
			className: `message${message.ephemeral ? ' ephemeral' : ''}${message.thinking ? ' thinking' : ''}`,
			'data-id': message.id,
			'data-author': message.author.name,
		},
		message.usedBy &&
			h('div', { className: 'used-by' }, `${message.usedBy.name} used `, h('span', { className: 'command-name' }, message.usedBy.command)),
		message.replyTo &&
			h('div', { className: 'reply-to' }, '↪ ', h('strong', {}, message.replyTo.author), ' ', inline(message.replyTo.content.split('\n')[0], names)),
		h(
			'div',
			{ className: 'avatar', 'aria-hidden': 'true', 'data-bot': message.author.bot, style: `background: ${avatarColor(message.author, names)}` },
			initial,
		),
		h(
			'div',
			{ className: 'body' },
			h(
				'header',
				{},
				h('span', { className: 'author' }, message.author.name),
				message.author.bot && h('span', { className: 'bot-tag' }, 'APP'),
				h('time', {}, new Date(message.timestamp).toLocaleTimeString()),
			),
			message.thinking
				? h('div', { className: 'content thinking-text' }, `${message.author.name} is thinking…`)
				: h('div', { className: 'content' }, markdown(message.content, names), message.edited && h('span', { className: 'edited' }, ' (edited)')),
			message.embeds.map((embed) => renderEmbed(embed, names)),
			message.components.map((component) => renderComponent(component, message, names, actions)),
			(message.attachments ?? []).map(renderAttachment),
			message.ephemeral && h('div', { className: 'only-you' }, '👁 Only you can see this'),
		),
		h('button', { type: 'button', className: 'apps-button', title: 'Apps', onclick: (event) => actions.apps(message, event.currentTarget) }, 'Apps'),
	);
}

/** A file attached to the message, as a link to it at the local Discord's CDN (it opens in a tab of its own). */
function renderAttachment(file) {
	if (!/^https?:\/\//.test(String(file.url))) return undefined;
	const size = file.size < 1024 ? `${file.size} B` : `${(file.size / 1024).toFixed(1)} KB`;
	return h(
		'div',
		{ className: 'attachment' },
		'📎 ',
		h('a', { href: file.url, target: '_blank', rel: 'noopener noreferrer', download: file.filename }, file.filename),
		h('span', { className: 'attachment-size' }, ` ${size}`),
	);
}

function renderEmbed(embed, names) {
	const color = typeof embed.color === 'number' ? `#${embed.color.toString(16).padStart(6, '0')}` : '#4f545c';
	return h(
		'article',
		{ className: 'embed', style: `border-left-color: ${color}` },
		embed.title && h('h4', {}, markdown(embed.title, names)),
		embed.description && h('p', {}, markdown(embed.description, names)),
		(embed.fields ?? []).length > 0 &&
			h(
				'dl',
				{},
				embed.fields.map((field) =>
					h('div', { className: field.inline ? 'field inline' : 'field' }, h('dt', {}, field.name), h('dd', {}, markdown(field.value, names))),
				),
			),
		embed.footer?.text && h('footer', {}, embed.footer.text),
	);
}

/**
 * A component as Discord's client draws it: a row of buttons, or (Components V2, a case card) a container with an
 * accent colour holding text displays, sections with a button beside them, separators, files and rows.
 */
function renderComponent(component, message, names, actions) {
	switch (component.type) {
		case 1:
			return renderRow(component, message, actions);
		case 17: {
			const color = typeof component.accent_color === 'number' ? `#${component.accent_color.toString(16).padStart(6, '0')}` : '#4f545c';
			return h(
				'article',
				{ className: 'container', style: `border-left-color: ${color}` },
				(component.components ?? []).map((inner) => renderComponent(inner, message, names, actions)),
			);
		}
		case 10:
			return h('div', { className: 'text-display' }, markdown(component.content ?? '', names));
		case 9:
			return h(
				'div',
				{ className: 'section' },
				h(
					'div',
					{ className: 'section-text' },
					(component.components ?? []).map((inner) => renderComponent(inner, message, names, actions)),
				),
				component.accessory && renderRow({ type: 1, components: [component.accessory] }, message, actions),
			);
		case 14:
			return h('div', { className: component.divider === false ? 'separator' : 'separator divider', role: 'separator' });
		case 13:
			return h('div', { className: 'file-component' }, '📄 ', String(component.file?.url ?? '').replace(/^attachment:\/\//, ''));
		default:
			return h('span', { className: 'unsupported' }, '(a component the sandbox does not draw)');
	}
}

function renderRow(row, message, actions) {
	if (row.type !== 1) return undefined;
	return h(
		'div',
		{ className: 'action-row' },
		(row.components ?? []).map((component) => {
			if (component.type !== 2) return h('span', { className: 'unsupported' }, '(a menu the sandbox does not draw)');
			const style = BUTTON_STYLES[component.style] ?? 'secondary';
			const own = style === 'link' && MESSAGE_LINK.exec(component.url ?? '');
			if (own)
				return h(
					'a',
					{ className: 'button link jump', href: `#message-${own[2]}`, onclick: (event) => (event.preventDefault(), actions.jump(own[1], own[2])) },
					component.label ?? 'Jump',
				);
			if (style === 'link')
				return h('a', { className: 'button link', href: component.url, target: '_blank', rel: 'noreferrer' }, component.label ?? 'Link');
			return h(
				'button',
				{
					type: 'button',
					className: `button ${style}`,
					disabled: component.disabled === true,
					onclick: () => actions.button(message, component.custom_id),
				},
				component.emoji?.name ? `${component.emoji.name} ` : '',
				component.label ?? '',
			);
		}),
	);
}

/** The text inputs of a modal, in Discord's current layout (Label around each input) or the legacy rows. */
export function modalInputs(modal) {
	const inputs = [];
	for (const component of modal.components ?? []) {
		if (component.type === 18 && component.component?.type === 4)
			inputs.push({ ...component.component, label: component.label, description: component.description });
		if (component.type === 1) for (const inner of component.components ?? []) if (inner.type === 4) inputs.push(inner);
	}
	return inputs;
}

export function renderInput(input) {
	const common = {
		name: input.custom_id,
		id: `field-${input.custom_id}`,
		required: input.required !== false,
		minlength: input.min_length,
		maxlength: input.max_length,
		placeholder: input.placeholder,
	};
	const field = input.style === 2 ? h('textarea', { ...common, rows: 4 }) : h('input', { ...common, type: 'text' });
	if (input.value) field.value = input.value;
	return h(
		'label',
		{ className: 'modal-field', for: common.id },
		h('span', {}, input.label ?? input.custom_id),
		input.description && h('small', {}, input.description),
		field,
	);
}
