import { pino, type Logger, type DestinationStream } from 'pino';

export type { Logger } from 'pino';

/**
 * Paths that may hold a secret in anything we log. Redaction by path is a second line of defence: the first is
 * never putting secrets into log objects at all (URLs go through redactUrl, errors carry no bodies).
 */
const REDACT_PATHS = [
	'token',
	'password',
	'accessToken',
	'sessionToken',
	'apiKey',
	'authorization',
	'*.token',
	'*.password',
	'*.accessToken',
	'*.sessionToken',
	'*.apiKey',
	'*.authorization',
	'headers.authorization',
	'headers["x-session-token"]',
	'*.headers.authorization',
	'*.headers["x-session-token"]',
	// discord.js REST errors carry the request's URL, which for interactions holds the interaction token, and its
	// body, which may hold model text on its way to a channel.
	'err.url',
	'err.requestBody',
	'err.majorParameter',
	'err.cause.url',
	'err.cause.requestBody',
	'err.cause.majorParameter',
];

/** Creates the root logger. Tests pass a destination to capture every line. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
	return pino(
		{
			level,
			base: { app: 'veil' },
			redact: { paths: REDACT_PATHS, censor: '[redacted]' },
			serializers: { err: pino.stdSerializers.err },
		},
		destination,
	);
}
