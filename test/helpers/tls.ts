// A self-signed certificate made at test time (openssl), for local HTTPS servers the service must trust
// through SVC_OUTBOUND_CA_FILE. Valid for localhost, tools.test, 127.0.0.1, 127.0.0.2 and ::1.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

export interface TestCertificate {
  certFile: string;
  cert: string;
  key: string;
}

export function makeCertificate(): TestCertificate {
  const dir = mkdtempSync(path.join(tmpdir(), "svc-tls-"));
  const certFile = path.join(dir, "cert.pem");
  const keyFile = path.join(dir, "key.pem");
  execFileSync(
    "openssl",
    [
      "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
      "-keyout", keyFile, "-out", certFile, "-days", "2", "-subj", "/CN=localhost",
      "-addext", "subjectAltName=DNS:localhost,DNS:tools.test,IP:127.0.0.1,IP:127.0.0.2,IP:::1",
    ],
    { stdio: "ignore" },
  );
  const certificate = { certFile, cert: readFileSync(certFile, "utf8"), key: readFileSync(keyFile, "utf8") };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return certificate;
}
