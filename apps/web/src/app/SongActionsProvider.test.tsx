import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useLocation } from 'react-router';
import { paymentReasonFrom } from '../features/payment/payment-reason.js';
import { SongList } from '../features/songs/SongList.js';
import { activateDownloads, readDownloadedSongs } from '../lib/downloaded-songs.js';
import { installFakeCaches } from '../test/fake-caches.js';
import { makeSong, makeUser } from '../test/fixtures.js';
import { mockApi } from '../test/mock-api.js';
import { renderInApp } from '../test/render.js';

const song = makeSong(3, { name: 'Blue in Green' });

function PaymentProbe() {
  const reason = paymentReasonFrom(useLocation().state);
  return <p>Payment page for {reason?.songName ?? 'nothing'}</p>;
}

async function chooseDownload() {
  fireEvent.click(screen.getByRole('button', { name: 'More options for Blue in Green' }));
  await act(async () => {
    fireEvent.click(screen.getByRole('menuitem', { name: 'Download' }));
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

describe('Download in the song menu', () => {
  it('sends a free account to the payment page with the song named, without asking the server', async () => {
    const api = mockApi({});
    renderInApp(<SongList songs={[song]} label="Songs" />, {
      user: makeUser({ premium: false }),
      routes: { '/dashboard/payment': <PaymentProbe /> },
    });
    await chooseDownload();
    expect(screen.getByText('Payment page for Blue in Green')).toBeInTheDocument();
    expect(api.calls()).toEqual([]);
  });

  it('downloads for a premium account and confirms it', async () => {
    installFakeCaches();
    // The signed-in user's downloads are active (AuthProvider does this at login).
    activateDownloads(7);
    mockApi({
      'downloads.song': () => new Response(new Uint8Array(8)),
      'media.image': () => new Response(new Uint8Array(1)),
    });
    const view = renderInApp(<SongList songs={[song]} label="Songs" />, {
      user: makeUser({ premium: true, premiumUntil: '2031-01-01T00:00:00.000Z' }),
    });
    await chooseDownload();
    expect(view.alertMessages()).toEqual(['“Blue in Green” is downloaded']);
    expect(readDownloadedSongs().map((entry) => entry.id)).toEqual([3]);
  });
});
