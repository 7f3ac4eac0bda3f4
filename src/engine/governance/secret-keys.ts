// Argument keys that name a secret: their values are withheld wherever an action is shown or stored (an
// escalation's copy of the action, the governed actions' history). The key is read as words (snake_case,
// kebab-case, camelCase), not searched for a fragment: "pass_id" (a lift or boarding pass), "bypass_valve"
// and "max_tokens" are ordinary arguments, "db_password", "authToken" and "api-key" are not.
const SECRET_WORDS = new Set(["password", "passwd", "passphrase", "pwd", "secret", "secrets", "token", "apikey", "authorization", "authorisation", "credential", "credentials", "cookie", "cookies"]);
const SECRET_PAIRS = new Set(["api key", "private key", "access key", "secret key", "signing key"]);

/** Whether an argument key names a secret. */
export function isSecretKey(key: string): boolean {
  const words = key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  if (words.length === 1 && words[0] === "pass") return true;
  return words.some((word, i) => SECRET_WORDS.has(word) || (i > 0 && SECRET_PAIRS.has(`${words[i - 1]} ${word}`)));
}
