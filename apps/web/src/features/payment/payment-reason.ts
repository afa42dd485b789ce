/** Navigation state of /dashboard/payment: why the user was sent there. */
export interface PaymentReason {
  reason: 'download';
  songName: string;
}

export function premiumRequiredState(songName: string): PaymentReason {
  return { reason: 'download', songName };
}

export function paymentReasonFrom(state: unknown): PaymentReason | null {
  if (typeof state !== 'object' || state === null) return null;
  const record = state as Record<string, unknown>;
  return record.reason === 'download' && typeof record.songName === 'string'
    ? { reason: 'download', songName: record.songName }
    : null;
}
