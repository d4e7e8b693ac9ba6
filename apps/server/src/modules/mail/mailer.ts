import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';

/** A transport made on first use: the mail library (~8 MiB of a server's memory) loads with the first mail. */
function transportOnDemand(options: Parameters<typeof nodemailer.createTransport>[0]): () => Promise<Transporter> {
  let transport: Promise<Transporter> | undefined;
  return () => (transport ??= import('nodemailer').then((library) => library.default.createTransport(options)));
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Bodies go out quoted-printable: ASCII (codes, addresses) stays readable in the raw mail,
 * an .eml in the outbox included, whatever the language of the text around it.
 */
const BODY_ENCODING = { textEncoding: 'quoted-printable' } as const;

/** Sends mail. */
export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/** Through an SMTP server (`BOGWAN_SMTP_URL`). */
export class SmtpMailer implements Mailer {
  private readonly transport: () => Promise<Transporter>;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = transportOnDemand(url);
  }

  async send(mail: Mail): Promise<void> {
    await (await this.transport()).sendMail({ from: this.from, ...BODY_ENCODING, ...mail });
  }
}

/**
 * The embedded default when no SMTP server is configured: each mail is written as an
 * .eml file to `<data dir>/outbox` and its location logged, so a single-machine
 * installation still works (the operator reads the codes there).
 */
export class OutboxMailer implements Mailer {
  private readonly transport = transportOnDemand({ streamTransport: true, buffer: true });

  constructor(
    private readonly dir: string,
    private readonly from: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  async send(mail: Mail): Promise<void> {
    const info = await (await this.transport()).sendMail({ from: this.from, ...BODY_ENCODING, ...mail });
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const file = path.join(this.dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^A-Za-z0-9]/g, '').slice(0, 16)}.eml`);
    await fs.promises.writeFile(file, info.message as Buffer, { mode: 0o600 });
    this.log.warn({ file, to: mail.to }, 'no SMTP server configured (BOGWAN_SMTP_URL): mail written to the outbox');
  }
}
