import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config.ts";

describe("loadConfig", () => {
  it("has safe defaults", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8787,
      host: "127.0.0.1",
      dataDir: "./.svc-data",
      databaseUrl: undefined,
      adminToken: undefined,
      publicUrl: "http://127.0.0.1:8787",
      bodyLimitBytes: 1024 * 1024,
      trustProxy: false,
    });
  });

  it.each([
    ["SVC_PORT", "70000"],
    ["SVC_PORT", "abc"],
    ["DATABASE_URL", "http://db"],
    ["SVC_PUBLIC_URL", "not a url"],
    ["SVC_ADMIN_TOKEN", "short"],
    ["SVC_RATE_LIMIT_PER_KEY", "0"],
    ["SVC_RATE_LIMIT_PER_KEY", "1.5"],
    ["SVC_TRUST_PROXY", "maybe"],
    ["SVC_LOG_LEVEL", "loud"],
    ["SVC_REDIS_URL", "http://x"],
  ])("refuses %s=%s naming the variable", (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });

  it("requires SVC_MASTER_KEY with DATABASE_URL (every process must share it) and checks its size", () => {
    expect(() => loadConfig({ DATABASE_URL: "postgres://u@h/db" })).toThrow("SVC_MASTER_KEY");
    expect(() => loadConfig({ SVC_MASTER_KEY: "too-short" })).toThrow("SVC_MASTER_KEY");
    expect(loadConfig({ SVC_MASTER_KEY: Buffer.alloc(32, 1).toString("base64") }).masterKey).toEqual(Buffer.alloc(32, 1));
    expect(loadConfig({}).masterKey).toBeUndefined();
  });

  it("trims the public URL's trailing slash and reads the rest", () => {
    const config = loadConfig({
      SVC_PUBLIC_URL: "https://svc.example.com/",
      SVC_PORT: "9000",
      DATABASE_URL: "postgres://u@h/db",
      SVC_MASTER_KEY: "a".repeat(64),
      SVC_RATE_LIMIT_PER_KEY: "10",
    });
    expect(config.masterKey).toEqual(Buffer.alloc(32, 0xaa));
    expect(config.publicUrl).toBe("https://svc.example.com");
    expect(config.port).toBe(9000);
    expect(config.databaseUrl).toBe("postgres://u@h/db");
    expect(config.rateLimitPerKey).toBe(10);
  });
});

describe("outbound configuration", () => {
  it("defaults: nothing allowed beyond public addresses, 10 s, 2 MiB, MCP sessions idle 5 minutes", () => {
    expect(loadConfig({})).toMatchObject({ outboundAllowHosts: [], outboundCaFile: undefined, outboundTimeoutMs: 10_000, outboundMaxBytes: 2 * 1024 * 1024, mcpIdleMs: 300_000 });
  });

  it("reads the allow-list (host names, addresses, CIDR ranges) and refuses anything else, naming the variable", () => {
    expect(loadConfig({ SVC_OUTBOUND_ALLOW_HOSTS: " LocalHost , 127.0.0.1,10.0.0.0/8, [::1], fd00::/8,api.internal." }).outboundAllowHosts).toEqual([
      "localhost",
      "127.0.0.1",
      "10.0.0.0/8",
      "::1",
      "fd00::/8",
      "api.internal",
    ]);
    for (const bad of ["10.0.0.0/33", "not a host", "http://x", "10.0.0.0/8/1", "::1/129"]) {
      expect(() => loadConfig({ SVC_OUTBOUND_ALLOW_HOSTS: bad }), bad).toThrow("SVC_OUTBOUND_ALLOW_HOSTS");
    }
  });

  it("checks that SVC_OUTBOUND_CA_FILE holds a certificate and that the limits are in range", () => {
    expect(() => loadConfig({ SVC_OUTBOUND_CA_FILE: "/nonexistent/ca.pem" })).toThrow("SVC_OUTBOUND_CA_FILE");
    expect(() => loadConfig({ SVC_OUTBOUND_CA_FILE: "package.json" })).toThrow("holds no PEM certificate");
    expect(() => loadConfig({ SVC_OUTBOUND_TIMEOUT_MS: "5" })).toThrow("SVC_OUTBOUND_TIMEOUT_MS");
    expect(() => loadConfig({ SVC_OUTBOUND_MAX_BYTES: "big" })).toThrow("SVC_OUTBOUND_MAX_BYTES");
    expect(() => loadConfig({ SVC_MCP_IDLE_MS: "0" })).toThrow("SVC_MCP_IDLE_MS");
  });
});
