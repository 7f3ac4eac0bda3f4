// Where a credential may be sent. A secret is made for one service: it must reach that service's hosts and
// no other, whoever attaches it to a connection. The hosts come, in this order, from the credential itself
// (`allowed_hosts` named at creation), from the catalog (a known provider's API hosts), or from the first
// connection that used it (the host is then recorded on the credential and never changes).
//
// Patterns: an exact host name or IP address (`api.example.com`, `10.0.0.7`), or a wildcard that stands for
// one or more labels in front of a domain of at least two labels (`*.example.com` matches `a.example.com`
// and `a.b.example.com`, not `example.com` itself; `*.com` is refused). Comparisons are of host names only:
// the port is not part of it, and calls are HTTPS only anyway.
import type { ErrorDetail } from "../../errors/app-error.ts";

export const MAX_ALLOWED_HOSTS = 20;

export type HostsSource = "declared" | "catalog" | "first_use" | "unbound";

export interface CredentialHosts {
  hosts: string[];
  source: HostsSource;
}

/** A host name as URLs spell it: lower case, IDN in punycode, IPv6 in brackets, no trailing dot. */
export function canonicalHost(hostname: string): string {
  return hostname.toLowerCase().replace(/\.$/, "");
}

/** The canonical pattern, or the reason it is not one. */
export function parseHostPattern(raw: unknown): { pattern: string } | { problem: string } {
  if (typeof raw !== "string" || raw.trim() === "" || raw.length > 253) return { problem: "must be a host name of at most 253 characters" };
  const text = raw.trim();
  const wildcard = text.startsWith("*.");
  const rest = wildcard ? text.slice(2) : text;
  let url: URL;
  try {
    url = new URL(`https://${rest}`);
  } catch {
    return { problem: "is not a host name" };
  }
  // Only a host: no scheme, port, path, user or query may ride along.
  if (url.port !== "" || url.username !== "" || url.password !== "" || url.pathname !== "/" || url.search !== "" || url.hash !== "" || /[/?#@:]/.test(rest.replace(/^\[.*\]$/, ""))) {
    return { problem: "must be a host name only (no scheme, port or path)" };
  }
  const host = canonicalHost(url.hostname);
  if (host.includes("*")) return { problem: "may use * only as its first label (*.example.com)" };
  if (wildcard && (host.startsWith("[") || /^[\d.]+$/.test(host) || !host.includes("."))) {
    return { problem: "a wildcard needs a domain of at least two labels after *. (*.example.com)" };
  }
  return { pattern: wildcard ? `*.${host}` : host };
}

/** Canonical patterns, or the problems with each (fields `allowed_hosts[i]`). */
export function parseAllowedHosts(raw: unknown): { hosts: string[] } | { problems: ErrorDetail[] } {
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_ALLOWED_HOSTS) {
    return { problems: [{ field: "allowed_hosts", message: `must be a list of 1 to ${MAX_ALLOWED_HOSTS} host names` }] };
  }
  const hosts: string[] = [];
  const problems: ErrorDetail[] = [];
  raw.forEach((entry, i) => {
    const parsed = parseHostPattern(entry);
    if ("problem" in parsed) problems.push({ field: `allowed_hosts[${i}]`, message: parsed.problem });
    else if (!hosts.includes(parsed.pattern)) hosts.push(parsed.pattern);
  });
  return problems.length > 0 ? { problems } : { hosts };
}

export function hostMatches(pattern: string, hostname: string): boolean {
  const host = canonicalHost(hostname);
  if (!pattern.startsWith("*.")) return host === pattern;
  const domain = pattern.slice(1); // ".example.com"
  return host.length > domain.length && host.endsWith(domain);
}

export function hostAllowed(hosts: string[], hostname: string): boolean {
  return hosts.some((pattern) => hostMatches(pattern, hostname));
}
