/**
 * `docsgen serve` under load on loopback: autocannon keeps a fixed number of
 * connections busy against one URL for a few seconds, then the next URL. The server is
 * its own process (bench/site.ts); on a two-core machine the load generator shares the
 * CPU with it, so these are lower bounds of what the server alone could do.
 */
import autocannon from 'autocannon';

export interface LoadResult {
  name: string;
  path: string;
  /** Status the URL must answer; a 404 page is measured too. */
  expectStatus: number;
  requestsPerSecond: number;
  /** ms */
  latency: { p50: number; p90: number; p99: number; max: number };
  /** bytes per second, as sent (compressed) */
  throughputBps: number;
  requests: number;
  /** Connection errors, timeouts included. */
  errors: number;
  /** Responses whose status was not the expected one. */
  unexpected: number;
}

export interface LoadBench {
  connections: number;
  secondsPerUrl: number;
  acceptEncoding: string;
  results: LoadResult[];
}

export async function benchLoad(
  baseUrl: string,
  targets: { name: string; path: string; expectStatus?: number }[],
  options: { connections?: number; seconds?: number } = {},
): Promise<LoadBench> {
  const connections = options.connections ?? 10;
  const seconds = options.seconds ?? 3;
  // What browsers send, so the server pays for compression as it does for readers.
  const acceptEncoding = 'gzip, deflate, br';
  const results: LoadResult[] = [];
  for (const target of targets) {
    const expectStatus = target.expectStatus ?? 200;
    const result = await autocannon({
      url: new URL(target.path, baseUrl).href,
      connections,
      duration: seconds,
      timeout: 5,
      headers: { 'accept-encoding': acceptEncoding },
    });
    const responses = Object.values(result.statusCodeStats).reduce((sum, s) => sum + s.count, 0);
    const expected = result.statusCodeStats[String(expectStatus)]?.count ?? 0;
    results.push({
      name: target.name,
      path: target.path,
      expectStatus,
      requestsPerSecond: result.requests.average,
      latency: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
      throughputBps: result.throughput.average,
      requests: responses,
      errors: result.errors,
      unexpected: responses - expected,
    });
  }
  return { connections, secondsPerUrl: seconds, acceptEncoding, results };
}
