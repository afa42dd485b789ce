import { ErrorCodes, IMAGE_QUOTA_WINDOW_HOURS, LimitMessages } from '@tonearm/contract';
import type { Limits } from '../../config.js';
import { HttpError } from '../../http/errors.js';
import type { UploadQuotaRepository, UploadUsage } from './upload-quota.repository.js';

export type UploadQuotaLimits = Pick<Limits, 'imageUploadsPerDay' | 'imageUploadBytesPerDay'>;

const WINDOW_MS = IMAGE_QUOTA_WINDOW_HOURS * 60 * 60 * 1000;

const quotaExceeded = (message: string) => new HttpError(429, ErrorCodes.quotaExceeded, message);

/**
 * The daily image allowance of a user (IMAGE_UPLOADS_PER_DAY, IMAGE_UPLOAD_MB_PER_DAY) over a rolling 24 hours,
 * counted in the database so that it holds across restarts and instances. It covers what users store for themselves
 * (profile photos, playlist covers), whoever they are; the catalogue's images (song covers, artist pictures) are an
 * administrator's job and are not counted (see docs/design.md, "Limits").
 */
export class UploadQuota {
  constructor(
    private readonly repository: UploadQuotaRepository,
    private readonly limits: UploadQuotaLimits,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Refuses (429) before an upload is even read when the user has no allowance left. */
  async assertRoom(userId: number): Promise<void> {
    const usage = await this.repository.usage(userId, this.windowStart().toISOString());
    this.refuseBeyond(usage, 1, 1);
  }

  /**
   * Records an upload of `bytes` against the user's allowance (429 when it does not fit), then runs `work`, the write
   * that stores it; if the write fails, the record is taken back, so only stored images count.
   */
  async charge<T>(userId: number, bytes: number, work: () => Promise<T>): Promise<T> {
    const now = this.now();
    const id = await this.repository.record(
      userId,
      bytes,
      now.toISOString(),
      this.windowStart(now).toISOString(),
      (usage) => this.refuseBeyond(usage, 1, bytes),
    );
    try {
      return await work();
    } catch (error) {
      // The write's error is the one to report; a record that cannot be removed only costs the user one upload.
      if (id !== null) await this.repository.remove(id).catch(() => undefined);
      throw error;
    }
  }

  private refuseBeyond(usage: UploadUsage, count: number, bytes: number): void {
    if (usage.count + count > this.limits.imageUploadsPerDay) {
      throw quotaExceeded(LimitMessages.imageUploadsPerDay(this.limits.imageUploadsPerDay));
    }
    if (usage.bytes + bytes > this.limits.imageUploadBytesPerDay) {
      throw quotaExceeded(LimitMessages.imageBytesPerDay(this.limits.imageUploadBytesPerDay));
    }
  }

  private windowStart(now = this.now()): Date {
    return new Date(now.getTime() - WINDOW_MS);
  }
}
