import type { AppDeps } from '../../http/app-types.js';
import { createUploadQuotaRepository } from './upload-quota.repository.js';
import { UploadQuota } from './upload-quota.service.js';

/** The daily image allowance over the app's database, with the configured limits. */
export function createUploadQuota({ db, dialect, config }: Pick<AppDeps, 'db' | 'dialect' | 'config'>): UploadQuota {
  return new UploadQuota(createUploadQuotaRepository(db, dialect), config.limits);
}
