import type { InputHTMLAttributes } from 'react';
import { FormField } from './FormField.js';
import './forms.css';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'id'> {
  label: string;
  value: string;
  onValue: (value: string) => void;
  error?: string | undefined;
  hint?: string | undefined;
}

/** A labelled text input (FormField's label, hint and error wiring) whose value is a string in the caller's state. */
export function TextField({ label, value, onValue, error, hint, className = 'input', ...input }: TextFieldProps) {
  return (
    <FormField label={label} error={error} {...(hint === undefined ? {} : { hint })}>
      {(control) => (
        <input
          {...input}
          {...control}
          className={className}
          value={value}
          onChange={(event) => {
            onValue(event.target.value);
          }}
        />
      )}
    </FormField>
  );
}
