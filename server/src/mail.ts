import nodemailer from 'nodemailer';
import type { Logger } from './log.ts';

export type Mail = { to: string; subject: string; text: string };
export type Mailer = { send(mail: Mail): Promise<void> };

/** SMTP through nodemailer when SMTP_URL is set; otherwise the mail is written to the server log. */
export function createMailer(opts: { smtpUrl: string | undefined; from: string; log: Logger }): Mailer {
  if (!opts.smtpUrl) {
    return {
      async send(mail) {
        opts.log.info('mail (no SMTP_URL set, logged instead of sent)', { ...mail });
      },
    };
  }
  const transport = nodemailer.createTransport(opts.smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail({ from: opts.from, ...mail });
    },
  };
}
