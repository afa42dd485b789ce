import type { App } from '../../http/app-types.js';
import { radioRoutes } from './radio.routes.js';
import type { SongsService } from '../songs/songs.service.js';
import type { RadioService } from './radio.service.js';

/** Song radio (`/api/radio`, issue 28). */
export function registerRadio(app: App, { radio, songs }: { radio: RadioService; songs: SongsService }): void {
  radioRoutes(app, radio, songs);
}
