/**
 * `docsgen serve` under load on loopback, next to nginx running deploy/nginx.conf over
 * the same build: autocannon keeps a fixed number of connections busy against one URL
 * for a few seconds, then the next URL, once with the Accept-Encoding browsers send
 * (both servers then send the build's brotli copies) and once without (plain bytes).
 * Both servers are their own processes (bench/site.ts, test/helpers/nginx.ts; nginx
 * with one worker, as docsgen serve is one process); on a two-core machine the load
 * generator shares the CPU with them, so these are lower bounds of what a server alone
 * could do.
 */
import autocannon from 'autocannon';
import { NGINX, startNginx, type RunningNginx } from '../test/helpers/nginx.ts';

export interface LoadResult {
  name: string;
  path: string;
  /** 'docsgen serve' or 'nginx'. */
  server: string;
  /** The Accept-Encoding sent; '' when none was. */
  acceptEncoding: string;
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
  /** What browsers send, the first of the two runs of each URL. */
  acceptEncoding: string;
  /** Why nginx was not measured, when it was not. */
  nginxSkipped?: string;
  results: LoadResult[];
}

/** What browsers send, so the server pays for compression as it does for readers. */
const BROWSER_ENCODING = 'gzip, deflate, br';

/** `dir`: the build served at baseUrl, for nginx to serve too. */
export async function benchLoad(
  baseUrl: string,
  targets: { name: string; path: string; expectStatus?: number }[],
  options: { connections?: number; seconds?: number; dir?: string } = {},
): Promise<LoadBench> {
  const connections = options.connections ?? 10;
  const seconds = options.seconds ?? 3;
  const servers: { server: string; url: string }[] = [{ server: 'docsgen serve', url: baseUrl }];
  let nginx: RunningNginx | undefined;
  let nginxSkipped: string | undefined;
  if (!options.dir) nginxSkipped = 'no build folder given';
  else if (!NGINX) nginxSkipped = 'nginx is not installed (test/setup/ensure-system-deps.sh installs it)';
  else {
    nginx = await startNginx(options.dir);
    servers.push({ server: 'nginx', url: nginx.url });
  }
  const results: LoadResult[] = [];
  try {
    for (const target of targets) {
      for (const acceptEncoding of [BROWSER_ENCODING, '']) {
        for (const { server, url } of servers) results.push(await measure(url, server, target, acceptEncoding, connections, seconds));
      }
    }
  } finally {
    await nginx?.stop();
  }
  return { connections, secondsPerUrl: seconds, acceptEncoding: BROWSER_ENCODING, ...(nginxSkipped ? { nginxSkipped } : {}), results };
}

async function measure(
  baseUrl: string,
  server: string,
  target: { name: string; path: string; expectStatus?: number },
  acceptEncoding: string,
  connections: number,
  seconds: number,
): Promise<LoadResult> {
  const expectStatus = target.expectStatus ?? 200;
  const result = await autocannon({
    url: new URL(target.path, baseUrl).href,
    connections,
    duration: seconds,
    timeout: 5,
    headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
  });
  const responses = Object.values(result.statusCodeStats).reduce((sum, s) => sum + s.count, 0);
  const expected = result.statusCodeStats[String(expectStatus)]?.count ?? 0;
  return {
    name: target.name,
    path: target.path,
    server,
    acceptEncoding,
    expectStatus,
    requestsPerSecond: result.requests.average,
    latency: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
    throughputBps: result.throughput.average,
    requests: responses,
    errors: result.errors,
    unexpected: responses - expected,
  };
}
