import { AUDIO_MAX_BYTES, IMAGE_MAX_BYTES, IMAGE_MIME_TYPES } from '@tonearm/contract';

/** What is wrong with a chosen file, said before uploading it; the server applies the same limits. */
export const UploadMessages = {
  notAudio: 'Choose an audio file',
  audioTooLarge: `Audio files can be at most ${AUDIO_MAX_BYTES / 1024 / 1024} MB`,
  notImage: 'Choose a JPEG, PNG or WebP image',
  imageTooLarge: `Images can be at most ${IMAGE_MAX_BYTES / 1024 / 1024} MB`,
} as const;

export function audioProblem(file: File): string | undefined {
  if (file.type !== '' && !file.type.startsWith('audio/')) return UploadMessages.notAudio;
  if (file.size > AUDIO_MAX_BYTES) return UploadMessages.audioTooLarge;
  return undefined;
}

export function imageProblem(file: File): string | undefined {
  if (file.type !== '' && !(IMAGE_MIME_TYPES as readonly string[]).includes(file.type)) return UploadMessages.notImage;
  if (file.size > IMAGE_MAX_BYTES) return UploadMessages.imageTooLarge;
  return undefined;
}
