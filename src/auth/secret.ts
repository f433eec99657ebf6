// better-auth's signing secret. Production must set BETTER_AUTH_SECRET (or auth.secret); a
// development install generates one once and keeps it under DATA_DIR so sessions survive
// restarts without any setup.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, type Config } from '../config/index.js';

export function resolveAuthSecret(config: Config): string {
  if (config.auth.secret) return config.auth.secret;
  if (config.env === 'production') {
    throw new ConfigError('BETTER_AUTH_SECRET (or auth.secret, at least 32 characters) must be set in production');
  }
  const file = path.resolve(config.dataDir, 'auth-secret');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  try {
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch {
    // Another process (worker, CLI) wrote it first: use theirs.
    return fs.readFileSync(file, 'utf8').trim();
  }
}
