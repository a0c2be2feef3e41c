import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { ADDRESS_CLASS_LABEL, classifyAddress } from './address-class.js';
import { OutboundRefused } from './errors.js';

export type ResolveAll = (
  hostname: string,
  options: LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

export function privateAddressRefusal(address: string, host: string): OutboundRefused {
  const label = ADDRESS_CLASS_LABEL[classifyAddress(address)];
  return new OutboundRefused(
    `address ${address} of host ${host} is ${label}; allowed only when the host is listed in SIBYL_ALLOW_PRIVATE_HOSTS`,
    nonPublicHostMessage(host),
  );
}

/**
 * The refusal a client sees: neither the address a name resolved to nor its kind (on a shared
 * server that would map the operator's internal DNS for any tenant), nor the setting's name.
 */
export function nonPublicHostMessage(host: string): string {
  const what = isIP(host) ? `address ${host} is` : `host ${host} resolves to`;
  return `${what} a private, loopback or otherwise non-public address; the server's operator can allow chosen hosts`;
}

/**
 * A `lookup` for http(s).request that fails unless every address the name resolves to is public.
 * Node connects to the address this returns, so the checked address is the one used: a second,
 * different DNS answer (rebinding) never reaches the socket.
 */
export function createGuardedLookup(resolve: ResolveAll = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      if (addresses.length === 0) return callback(new Error(`host ${hostname} has no address`), '');
      const refused = addresses.find((a) => classifyAddress(a.address) !== 'public');
      if (refused) return callback(privateAddressRefusal(refused.address, hostname), '');
      // With happy-eyeballs (autoSelectFamily) node asks for all addresses, otherwise for one.
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
