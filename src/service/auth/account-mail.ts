/** The texts of the one-time-link e-mails (plain text: no tracking, nothing to render). */
export interface AccountMail { subject: string; text: string }

export function verificationMail(link: string): AccountMail {
  return {
    subject: 'Sibyl: confirm your e-mail address',
    text: `Open this link to confirm that this address belongs to your Sibyl account:\n\n${link}\n\n`
      + 'The link works once, for two days. If you did not create an account, ignore this message.\n',
  };
}

export function passwordResetMail(link: string): AccountMail {
  return {
    subject: 'Sibyl: set a new password',
    text: `Open this link to choose a new password for your Sibyl account:\n\n${link}\n\n`
      + 'The link works once, for one hour. If you did not ask for it, ignore this message: your password stays as it is.\n',
  };
}
