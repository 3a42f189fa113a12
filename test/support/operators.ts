/** Reading the operators' endpoint over HTTP, as Prometheus and a load balancer would. */

export interface ReadyAnswer {
	readonly status: number;
	readonly body: { ready: boolean; shards: Record<string, string>; store: string };
}

export async function readyz(port: number): Promise<ReadyAnswer> {
	const response = await fetch(`http://127.0.0.1:${port}/readyz`);
	return { status: response.status, body: (await response.json()) as ReadyAnswer['body'] };
}

export async function metricsText(port: number): Promise<string> {
	const response = await fetch(`http://127.0.0.1:${port}/metrics`);
	if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`);
	return response.text();
}

/** The value of one sample, e.g. `veil_asks_total{outcome="shown"}`; undefined when it is not exported. */
export function sample(text: string, series: string): number | undefined {
	const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
	return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** Every sample's value by series, for comparing two readings. */
export async function samples(port: number): Promise<(series: string) => number> {
	const text = await metricsText(port);
	return (series) => sample(text, series) ?? 0;
}
