import nodemailer from 'nodemailer';
import { splitSender } from './smtp-url.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** Rejects when the SMTP server does not accept the message; the caller decides whether that matters. */
  send(message: MailMessage): Promise<void>;
}

/** The part of a pino/fastify logger the mailer uses. */
export interface MailLog {
  info(details: object, message: string): void;
}

/**
 * A mailer for SIBYL_SMTP_URL, e.g. `smtp://user:pass@mail.example.org:587?from=sibyl%40example.org`
 * (`smtps://` for implicit TLS; other query parameters are nodemailer SMTP options). Without a URL
 * the messages are logged instead, so a deployment without mail still shows what would be sent.
 */
export function createMailer(smtpUrl: string | undefined, log: MailLog): Mailer {
  if (smtpUrl === undefined || smtpUrl.trim() === '') {
    return {
      async send(message) {
        log.info({ mail: message }, 'e-mail not sent: SIBYL_SMTP_URL is not set');
      },
    };
  }
  const { transportUrl, from } = splitSender(smtpUrl.trim());
  const transport = nodemailer.createTransport(transportUrl, { from });
  return {
    async send({ to, subject, text }) {
      await transport.sendMail({ to, subject, text });
    },
  };
}
