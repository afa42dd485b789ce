import { mayManageUser, ServerMessages } from '@tonearm/contract';
import type { UserRow } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';
import type { BlobReleaser } from '../../maintenance/blob-release.js';
import type { UploadQuota } from '../limits/upload-quota.service.js';
import { commitAll, discardAll, type StagedImage } from '../../media/staging.js';
import type { UsersPhotoRepository } from './users-photo.repository.js';

type Actor = Pick<UserRow, 'id' | 'role'>;

/** Profile photos: the user themselves or an admin; the replaced photo goes once no row references it. */
export class UsersPhotoService {
  constructor(
    private readonly users: UsersPhotoRepository,
    private readonly releaseBlobs: BlobReleaser,
    /** The daily image allowance photos are charged to (the uploader's). */
    private readonly quota: UploadQuota,
  ) {}

  /** Checked before the upload is read: self or admin, and the user must exist. */
  async assertCanChange(actor: Actor, id: number): Promise<void> {
    if (!mayManageUser(actor, id)) throw notFound(ServerMessages.notFound);
    if ((await this.users.find(id)) === undefined) throw notFound(ServerMessages.notFound);
  }

  /** Refuses (429) before the photo's bytes are read when the uploader's daily image allowance is spent. */
  async assertCanUpload(actor: Actor): Promise<void> {
    await this.quota.assertRoom(actor.id);
  }

  async setPhoto(actor: Actor, id: number, image: StagedImage): Promise<UserRow> {
    let previous: string | null;
    let updated: UserRow;
    try {
      await this.assertCanChange(actor, id);
      previous = (await this.users.find(id))?.image_key ?? null;
      const write = async () => {
        const row = await this.users.setImage(id, image.originalKey, () => commitAll([image]));
        if (row === undefined) throw notFound(ServerMessages.notFound);
        return row;
      };
      updated = await this.quota.charge(actor.id, image.size, write);
    } catch (error) {
      await discardAll([image]);
      throw error;
    }
    if (previous !== image.originalKey) await this.releaseBlobs({ image: [previous] });
    return updated;
  }

  async removePhoto(actor: Actor, id: number): Promise<UserRow> {
    await this.assertCanChange(actor, id);
    const previous = (await this.users.find(id))?.image_key ?? null;
    const updated = await this.users.setImage(id, null, () => Promise.resolve());
    if (updated === undefined) throw notFound(ServerMessages.notFound);
    await this.releaseBlobs({ image: [previous] });
    return updated;
  }
}
