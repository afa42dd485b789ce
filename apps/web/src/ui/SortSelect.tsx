import './forms.css';
import './SortSelect.css';

export interface SortChoice<T extends string> {
  value: T;
  label: string;
}

/**
 * Issue 28: a grid's order ("Sort artists", "Sort albums"): a labelled compact select of the orders it offers. Song
 * lists have their own (SongSortHeader), with column headers.
 */
export function SortSelect<T extends string>({
  label,
  value,
  choices,
  onChange,
}: {
  /** The visible label, also the select's accessible name. */
  label: string;
  value: T;
  choices: readonly SortChoice<T>[];
  onChange: (value: T) => void;
}) {
  return (
    <label className="sort-select">
      <span>{label}</span>
      <select
        className="input select select--compact"
        value={value}
        onChange={(event) => {
          const chosen = choices.find((choice) => choice.value === event.target.value);
          if (chosen) onChange(chosen.value);
        }}
      >
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </label>
  );
}
