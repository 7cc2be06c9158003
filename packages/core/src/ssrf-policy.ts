import { BlockList, isIP } from 'node:net';

/**
 * Which outbound addresses a service may reach on a caller's behalf (flows'
 * tools, the client ID metadata documents of OAuth). Private, link-local,
 * loopback and other non-public ranges are refused unless the setting (e.g.
 * FLOWS_ALLOWED_HOSTS) lists the host name, the address or a CIDR containing
 * it (`*` allows everything).
 */
export interface AddressPolicy {
  /** The variable the allow-list comes from, named in refusals so an operator knows what to change. */
  setting: string;
  /** True when every check is off (`*`). */
  allowAll: boolean;
  /** Host names allowed whatever they resolve to (lower case). */
  hosts: Set<string>;
  /** Addresses and CIDRs allowed although non-public. */
  allowed: BlockList;
}

const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv6');

/** Parses an allow-list variable (comma-separated host names, IPs or CIDRs; `*` allows all) named `setting`; throws on a malformed entry. */
export function parseAllowedHosts(value: string | undefined, setting: string): AddressPolicy {
  const policy: AddressPolicy = { setting, allowAll: false, hosts: new Set(), allowed: new BlockList() };
  for (const raw of (value ?? '').split(',')) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    if (entry === '*') {
      policy.allowAll = true;
      continue;
    }
    const [address, prefix] = entry.split('/');
    const family = isIP(address.replace(/^\[|\]$/g, ''));
    if (family === 0) {
      if (prefix !== undefined || !/^[a-z0-9.-]+$/.test(entry)) throw new Error(`"${raw.trim()}" is neither a host name, an IP address nor a CIDR`);
      policy.hosts.add(entry);
      continue;
    }
    const type = family === 4 ? 'ipv4' : 'ipv6';
    const clean = address.replace(/^\[|\]$/g, '');
    if (prefix === undefined) policy.allowed.addAddress(clean, type);
    else {
      const bits = Number(prefix);
      if (!Number.isInteger(bits) || bits < 0 || bits > (family === 4 ? 32 : 128)) throw new Error(`"${raw.trim()}" has an invalid prefix length`);
      policy.allowed.addSubnet(clean, bits, type);
    }
  }
  return policy;
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`), if it is one. */
function mappedIpv4(address: string): string | undefined {
  const match = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return match?.[1];
}

/** True when the host name itself is allowed (no address check needed). */
export function hostAllowed(policy: AddressPolicy, host: string): boolean {
  return policy.allowAll || policy.hosts.has(host.toLowerCase().replace(/^\[|\]$/g, ''));
}

/**
 * Why an address may not be contacted, or undefined when it may. Checked on
 * every resolved address of every hop, so a DNS name or a redirect cannot lead
 * to a private address.
 */
export function refusalOf(policy: AddressPolicy, address: string): string | undefined {
  if (policy.allowAll) return undefined;
  const mapped = mappedIpv4(address);
  const ip = mapped ?? address;
  const family = isIP(ip);
  if (family === 0) return `"${address}" is not an IP address`;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (!BLOCKED.check(ip, type)) return undefined;
  if (policy.allowed.check(ip, type)) return undefined;
  return `the address ${address} is private, loopback or link-local (allow it with ${policy.setting})`;
}
