// Where a company webhook may post (SSRF guard, README.md "Targets"), and where a queue integration
// (n8n, webhook, Typebot), a Dialogflow credential's token URI or a file an integration answers
// with may be fetched from (assistants/adapters/http.ts). An admin of any tenant types the URL, and
// the server calls it from inside the platform's network: without a guard it could reach the
// database, the cloud's metadata service or an admin port on localhost.
// Checked twice: when the URL is registered (scheme, literal addresses, local names, and what the
// name resolves to now), and at every delivery on the address the socket actually connects to (a
// name may resolve elsewhere later: DNS rebinding). `WEBHOOKS_ALLOW_PRIVATE=1` lifts the address
// rules for self-hosted setups whose receivers live on the private network (and for tests and
// benchmarks, which post to 127.0.0.1); the scheme rule stays.
import dns from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { AppError } from '@zapdesk/sync';

/** A name's addresses (tests inject one; the default asks the system resolver, /etc/hosts included). */
export type Resolve = (host: string) => Promise<string[]>;

export type TargetPolicy = { allowPrivate: boolean; resolve?: Resolve | undefined };

const systemResolve: Resolve = async (host) => (await dns.promises.lookup(host, { all: true, verbatim: true })).map((a) => a.address);

const forbidden = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, the clouds' metadata service (169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  forbidden.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // NAT64 (the IPv4 address inside is not checked: refuse them all)
  ['fc00::', 7], // unique local (fd00:ec2::254 is a cloud metadata address)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  forbidden.addSubnet(net, bits, 'ipv6');
}

/** Names that are this machine or its cloud's metadata service whatever a resolver says. */
const LOCAL_NAME = /(^|\.)(localhost|localdomain|local|internal)$/i;

/** Whether a webhook may connect to this address (IPv4-mapped IPv6 judged as its IPv4). */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return forbidden.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return forbidden.check(mapped[1]!, 'ipv4');
  // ::ffff:7f00:1 (the mapped form written in hex)
  if (/^::ffff:[0-9a-f]{1,4}:[0-9a-f]{1,4}$/i.test(address)) {
    const [hi, lo] = address.slice(7).split(':').map((h) => parseInt(h, 16)) as [number, number];
    return forbidden.check(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, 'ipv4');
  }
  return forbidden.check(address, 'ipv6');
}

/** The URL's host without IPv6 brackets. */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * What is wrong with posting to this URL without resolving it: the scheme, a literal address or a
 * local name (undefined when nothing is). The WHATWG parser already turned 2130706433 and 0x7f.1
 * into 127.0.0.1.
 */
export function staticTargetProblem(raw: string, policy: TargetPolicy): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `the scheme ${url.protocol.replace(/:$/, '')} is not http or https`;
  if (url.username || url.password) return 'credentials in the URL are not allowed (use the signature)';
  if (policy.allowPrivate) return undefined;
  const host = hostOf(url);
  if (isIP(host)) return isForbiddenAddress(host) ? `${host} is a loopback, private, link-local, CGNAT, multicast or reserved address` : undefined;
  if (LOCAL_NAME.test(host.replace(/\.$/, ''))) return `${host} is a local name`;
  return undefined;
}

/** Who is refused the URL: a company webhook (`url`) or a queue integration (`urlN8N`), in the error's words and path. */
export type TargetUse = { field: string; purpose: string };
const WEBHOOK_USE: TargetUse = { field: 'url', purpose: 'receive webhooks' };

const forbiddenError = (problem: string, use: TargetUse) => new AppError('ERR_WEBHOOK_URL_FORBIDDEN', `This URL cannot ${use.purpose}: ${problem}.`, { issues: [{ path: use.field, message: problem }] });

/** Registration time names may not resolve yet (or here): refused only when they resolve somewhere forbidden. */
const RESOLVE_TIMEOUT_MS = 3_000;

/**
 * At registration (before the write, never inside a transaction): refuses the URL with
 * ERR_WEBHOOK_URL_FORBIDDEN when it is not http(s), or (unless private targets are allowed) names
 * a forbidden address, a local name, or a name that resolves to a forbidden address now. A name
 * that does not resolve is accepted: each delivery checks again.
 */
export async function assertWebhookTarget(raw: string, policy: TargetPolicy, use: TargetUse = WEBHOOK_USE): Promise<void> {
  const problem = staticTargetProblem(raw, policy);
  if (problem) throw forbiddenError(problem, use);
  if (policy.allowPrivate) return;
  const host = hostOf(new URL(raw));
  if (isIP(host)) return;
  const resolve = policy.resolve ?? systemResolve;
  let timer: NodeJS.Timeout | undefined;
  const addresses = await Promise.race([resolve(host).catch(() => [] as string[]), new Promise<string[]>((r) => (timer = setTimeout(() => r([]), RESOLVE_TIMEOUT_MS)))]);
  clearTimeout(timer);
  const bad = addresses.find(isForbiddenAddress);
  if (bad) throw forbiddenError(`${host} resolves to ${bad}, a loopback, private, link-local, CGNAT, multicast or reserved address`, use);
}

/** The error a delivery fails with when its name resolved to a forbidden address. */
export class ForbiddenTargetError extends Error {
  readonly code = 'ERR_WEBHOOK_URL_FORBIDDEN';
}

/**
 * The `lookup` of a delivery's socket: resolves, then refuses the connection when any address is
 * forbidden. It runs for each new connection, on the address used, so a name that changed its
 * answer since registration is caught here.
 */
export function guardedLookup(policy: TargetPolicy): LookupFunction {
  const resolve = policy.resolve ?? systemResolve;
  return (hostname, options, callback) => {
    resolve(hostname)
      .then((addresses) => {
        if (addresses.length === 0) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
        const bad = addresses.find(isForbiddenAddress);
        if (bad) throw new ForbiddenTargetError(`${hostname} resolves to ${bad}, a forbidden address`);
        const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => isIP(a) === options.family) : addresses;
        const list = (wanted.length ? wanted : addresses).map((address) => ({ address, family: isIP(address) }));
        if (options.all) callback(null, list);
        else callback(null, list[0]!.address, list[0]!.family);
      })
      .catch((err: NodeJS.ErrnoException) => callback(err, '', 0));
  };
}
