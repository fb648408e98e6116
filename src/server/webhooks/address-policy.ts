/**
 * `--webhook-allowed-hosts`: where deliveries may go. Host names match the URL's host; IP addresses and CIDRs match
 * the address actually connected to, checked in the socket's own DNS look-up, so that a name resolving to an
 * allowed address once and to another at delivery time (DNS rebinding) gains nothing.
 */
import { BlockList, isIP } from "node:net";
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import { hostPatterns } from "../settings/host-patterns.js";

export class AddressPolicy {
  private readonly names = new Set<string>();
  private readonly addresses = new BlockList();

  /** @param entries host names, IP addresses and CIDRs (`10.0.0.0/8`, `::1/128`). */
  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const [address, prefix] = entry.split("/");
      const family = isIP(address ?? "");
      if (family === 0) this.names.add(entry.toLowerCase());
      else if (prefix === undefined) this.addresses.addAddress(address!, family === 6 ? "ipv6" : "ipv4");
      else this.addresses.addSubnet(address!, Number(prefix), family === 6 ? "ipv6" : "ipv4");
    }
  }

  /** A comma-separated list; throws on an entry that is neither a host name, an address nor a CIDR. */
  static parse(value: string): AddressPolicy {
    return new AddressPolicy(hostPatterns(value));
  }

  allowsName(host: string): boolean {
    return this.names.has(host.toLowerCase().replace(/^\[|\]$/g, ""));
  }

  allowsAddress(address: string): boolean {
    const family = isIP(address);
    return family !== 0 && this.addresses.check(address, family === 6 ? "ipv6" : "ipv4");
  }

  /** Why a delivery to `host` may not be made before any connection, or null: a literal address is checked here. */
  refusal(host: string): string | null {
    const bare = host.replace(/^\[|\]$/g, "");
    if (this.allowsName(bare)) return null;
    if (isIP(bare) !== 0) return this.allowsAddress(bare) ? null : refused(bare);
    return null; // a name: its addresses are checked as the socket resolves it (lookup below)
  }

  /** The socket's DNS look-up, refusing every resolved address the policy does not allow. */
  lookup(host: string): LookupFunction | undefined {
    if (this.allowsName(host) || isIP(host.replace(/^\[|\]$/g, "")) !== 0) return undefined;
    return ((
      hostname: string,
      options: object,
      callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
    ) => {
      dnsLookup(hostname, { ...options, all: true }, (error, found) => {
        if (error) return callback(error, []);
        const allowed = found.filter((a) => this.allowsAddress(a.address));
        if (!allowed.length)
          return callback(
            new RefusedDestination(refused(`${hostname} (${found.map((a) => a.address).join(", ")})`)),
            [],
          );
        if ((options as { all?: boolean }).all) return callback(null, allowed);
        return callback(null, allowed[0]!.address, allowed[0]!.family);
      });
    }) as LookupFunction;
  }
}

export class RefusedDestination extends Error {
  override name = "RefusedDestination";
}

const refused = (what: string) => `${what} is not among --webhook-allowed-hosts: no request was made`;
