/**
 * Outgoing mail, behind an adapter: SMTP in production (SMTP_URL), a log line in the sandbox. Mail is
 * sent by the `mail-send` job, never inside a request, so a slow or failing mail server neither delays
 * nor breaks signup; the job retries with backoff.
 */
import nodemailer from 'nodemailer'
import type { Logger } from 'pino'

export interface MailMessage {
  readonly to: string
  readonly subject: string
  readonly text: string
}

export interface Mailer {
  send(message: MailMessage): Promise<void>
  close(): Promise<void>
}

/** Sandbox: records that a message would be sent, without its body (which may carry a token). */
export function createLogMailer(logger: Logger): Mailer {
  return {
    async send(message) {
      logger.info({ mail: { subject: message.subject, bytes: Buffer.byteLength(message.text) } }, 'mail suppressed (sandbox log mailer)')
    },
    async close() {},
  }
}

export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl)
  return {
    async send(message) {
      await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text })
    },
    async close() {
      transport.close()
    },
  }
}
