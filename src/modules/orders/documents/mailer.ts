// Outgoing mail through nodemailer. With an SMTP URL (mail.smtpUrl, or SMTP_URL) messages go out
// over SMTP; without one, nodemailer's JSON transport renders each message and it is written to
// DATA_DIR/mail/<time>-<message id>.json (attachments base64-encoded), so development and tests
// see exactly what would have been sent. The sender is mail.from (or MAIL_FROM).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type Nodemailer from 'nodemailer';
import { lazyModule } from '../../../lazy.js';

const nodemailer = lazyModule<typeof Nodemailer>('nodemailer');
import type { Config } from '../../../config/index.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: Array<{ filename: string; content: Buffer; contentType: string }>;
  replyTo?: string;
}

export interface SentMail {
  messageId: string;
  transport: 'smtp' | 'file';
  /** The JSON file written by the file transport. */
  file?: string;
}

export interface Mailer {
  readonly transport: 'smtp' | 'file';
  readonly from: string;
  send(message: MailMessage): Promise<SentMail>;
}

export const DEFAULT_FROM = 'Store <no-reply@localhost>';

export function createMailer(config: Config, env: NodeJS.ProcessEnv = process.env): Mailer {
  const smtpUrl = config.mail.smtpUrl ?? env.SMTP_URL;
  const from = config.mail.from ?? env.MAIL_FROM ?? DEFAULT_FROM;
  // The transport (and nodemailer with it, ~55 ms of CPU) is made on the first message, not when
  // a process boots (issue 30 goal 5: most processes of a boot send nothing at once).
  if (smtpUrl) {
    let transport: ReturnType<typeof Nodemailer.createTransport> | undefined;
    return {
      transport: 'smtp',
      from,
      async send(message) {
        transport ??= nodemailer().createTransport(smtpUrl);
        const info = await transport.sendMail({ from, ...message });
        return { messageId: info.messageId, transport: 'smtp' };
      },
    };
  }
  let transport: ReturnType<typeof Nodemailer.createTransport> | undefined;
  const directory = path.resolve(config.dataDir, 'mail');
  return {
    transport: 'file',
    from,
    async send(message) {
      transport ??= nodemailer().createTransport({ jsonTransport: true });
      const info = await transport.sendMail({ from, ...message });
      await fs.mkdir(directory, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const id = (info.messageId ?? randomBytes(8).toString('hex')).replace(/[^A-Za-z0-9@._-]/g, '');
      const file = path.join(directory, `${stamp}-${id}.json`);
      await fs.writeFile(file, typeof info.message === 'string' ? info.message : JSON.stringify(info.message), { mode: 0o600 });
      return { messageId: info.messageId, transport: 'file', file };
    },
  };
}

// ctx.services.mailer: the core's Services registry (src/services.ts) is filled by each module, by declaration merging.
declare module '../../../services.js' {
  interface Services {
    /** Outgoing mail: SMTP when configured, otherwise JSON files under DATA_DIR/mail. */
    mailer: Mailer;
  }
}
