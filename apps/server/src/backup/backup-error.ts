/** A backup or a restore that cannot be done as asked; the message is fit to print on its own. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}
