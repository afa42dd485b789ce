import { fireEvent, screen } from '@testing-library/react';
import { endpoints } from '@tonearm/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, makeArtist, makeUser } from '../../test/fixtures.js';
import { mockApi } from '../../test/mock-api.js';
import { renderInApp } from '../../test/render.js';
import { flush } from '../../test/timers.js';
import { AddArtistDialog } from './AddArtistDialog.js';

const admin = makeUser({ role: 'ADMIN' });
const [imageField] = Object.keys(endpoints.artists.create.form.files);

function render() {
  const onClose = vi.fn();
  const view = renderInApp(<AddArtistDialog onClose={onClose} />, { user: admin });
  return { ...view, onClose };
}

async function save(name: string, image?: File) {
  fireEvent.change(screen.getByLabelText('Name'), { target: { value: name } });
  if (image) fireEvent.change(screen.getByLabelText(/^Image/), { target: { files: [image] } });
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  await flush();
}

describe('Add artist popup', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is titled in sentence case, like the button that opens it (issue 26)', () => {
    mockApi({});
    render();
    expect(screen.getByRole('dialog', { name: 'Add artist' })).toBeInTheDocument();
  });

  it('posts the name and the image as multipart, in that order', async () => {
    const api = mockApi({ 'artists.create': () => makeArtist(5, { name: 'Nina Simone' }) });
    const { alertMessages, onClose } = render();
    await save('  Nina Simone ', new File(['png'], 'nina.png', { type: 'image/png' }));
    const [request] = api.requests('artists.create');
    expect(request?.url).toBe('http://localhost/artists');
    const form = await request?.formData();
    expect([...(form?.keys() ?? [])]).toEqual(['name', imageField]);
    expect(form?.get('name')).toBe('Nina Simone');
    expect(alertMessages()).toEqual(['Artist “Nina Simone” added']);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('sends no image part when none is chosen, and says so when the server refuses', async () => {
    const api = mockApi({
      'artists.create': () => errorResponse(409, 'conflict', 'Taken'),
    });
    const { alertMessages, onClose } = render();
    await save('Nina Simone');
    const form = await api.requests('artists.create')[0]?.formData();
    expect([...(form?.keys() ?? [])]).toEqual(['name']);
    expect(alertMessages()).toEqual(['Failed to add artist']);
    expect(onClose).not.toHaveBeenCalled();
  });
});
