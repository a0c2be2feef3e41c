/** SIBYL_SMTP_URL: an smtp:// or smtps:// URL with an optional ?from= sender. */

const DEFAULT_FROM = 'Sibyl <sibyl@localhost>';

/**
 * Checks SIBYL_SMTP_URL and splits it; `from` is ours, not a nodemailer transport option, so it is
 * taken out of the URL. Throws a message naming the variable and the expected form.
 */
export function splitSender(smtpUrl: string): { transportUrl: string; from: string } {
  let url: URL;
  try {
    url = new URL(smtpUrl);
  } catch {
    // The URL may hold a password, so it is not repeated in the message.
    throw new Error('SIBYL_SMTP_URL is not a valid URL (expected smtp://[user:password@]host[:port][?from=address])');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new Error(`SIBYL_SMTP_URL must use smtp: or smtps:, not ${url.protocol}`);
  }
  const from = url.searchParams.get('from') ?? DEFAULT_FROM;
  url.searchParams.delete('from');
  return { transportUrl: url.href, from };
}
