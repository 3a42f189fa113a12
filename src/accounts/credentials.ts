/** The pair of tokens the account service issues at login; presented on every generation call for a linked member. */
export interface LinkedCredentials {
	readonly accessToken: string;
	readonly sessionToken: string;
}
