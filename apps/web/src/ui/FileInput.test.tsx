import { fireEvent, render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { FileInput } from './FileInput.js';

describe('FileInput', () => {
  it('hands over the chosen file, and null when the choice is cleared', () => {
    const onFile = vi.fn();
    render(
      <FileInput
        id="f"
        aria-describedby={undefined}
        aria-invalid={undefined}
        name="songFile"
        accept="audio/*"
        onFile={onFile}
      />,
    );
    const input = document.getElementById('f');
    if (!(input instanceof HTMLInputElement)) throw new Error('no file input');
    expect(input.accept).toBe('audio/*');
    const file = new File(['RIFF'], 'song.wav', { type: 'audio/wav' });
    fireEvent.change(input, { target: { files: [file] } });
    expect(onFile).toHaveBeenLastCalledWith(file);
    fireEvent.change(input, { target: { files: [] } });
    expect(onFile).toHaveBeenLastCalledWith(null);
  });
});
