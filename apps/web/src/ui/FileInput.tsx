import type { FieldControlProps } from './FormField.js';
import './forms.css';

export interface FileInputProps extends FieldControlProps {
  name: string;
  /** What the picker offers; the server still checks the real type from the file's bytes. */
  accept: string;
  required?: boolean;
  onFile: (file: File | null) => void;
}

/** The one file field of every upload form: a single file, handed over as a File (or null when cleared). */
export function FileInput({ onFile, ...props }: FileInputProps) {
  return (
    <input
      {...props}
      className="input file-input"
      type="file"
      onChange={(event) => {
        onFile(event.target.files?.[0] ?? null);
      }}
    />
  );
}
