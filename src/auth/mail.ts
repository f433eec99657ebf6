// The messages identity flows send (password reset, email verification, email change), through
// the same mail transport as invoices: SMTP when configured, else JSON files under DATA_DIR/mail.
// Links point at better-auth's endpoints under /api/auth, which check the token and then
// redirect to the `redirectTo`/`callbackURL` the storefront passed.

/**
 * What identity mail needs from a transport. The mailer (modules/orders/documents/mailer.ts)
 * has this shape; the entry files hand it to createAuth, so this layer does not import it.
 */
export interface MailSender {
  send(message: { to: string; subject: string; text: string; html?: string }): Promise<unknown>;
}

interface LinkMail {
  user: { email: string; name?: string | null };
  url: string;
  token: string;
}

function greeting(user: LinkMail['user']): string {
  return user.name ? `Hello ${user.name},` : 'Hello,';
}

export function authMail(mailer: MailSender) {
  return {
    async resetPassword({ user, url }: LinkMail): Promise<void> {
      await mailer.send({
        to: user.email,
        subject: 'Reset your password',
        text: `${greeting(user)}\n\nSomeone asked to reset the password of this account. If that was you, open this link:\n\n${url}\n\nIf it was not you, ignore this message: the password stays as it is.\n`,
      });
    },
    async verifyEmail({ user, url }: LinkMail): Promise<void> {
      await mailer.send({
        to: user.email,
        subject: 'Confirm your email address',
        text: `${greeting(user)}\n\nConfirm this email address by opening this link:\n\n${url}\n`,
      });
    },
    async confirmEmailChange({ user, newEmail, url }: LinkMail & { newEmail: string }): Promise<void> {
      await mailer.send({
        to: user.email,
        subject: 'Confirm the change of your email address',
        text: `${greeting(user)}\n\nSomeone asked to change this account's email address to ${newEmail}. If that was you, open this link:\n\n${url}\n\nIf it was not you, ignore this message and change your password.\n`,
      });
    },
  };
}
