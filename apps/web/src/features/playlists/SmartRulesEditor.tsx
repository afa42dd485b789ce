import { SMART_RULES_MAX_DEPTH, SMART_SORT_FIELDS, type FolderLibrary, type SmartField } from '@tonearm/contract';
import { CloseIcon, PlusIcon } from '../../ui/icons.js';
import {
  FIELD_LABELS,
  isGroup,
  kindOf,
  newGroup,
  newRule,
  OPERATOR_LABELS,
  operatorsOf,
  withField,
  type DraftGroup,
  type DraftNode,
  type DraftRule,
} from './smart-rules.js';

const FIELDS = SMART_SORT_FIELDS.filter((field): field is SmartField => field !== 'random');

interface RuleProps {
  rule: DraftRule;
  name: string;
  libraries: readonly FolderLibrary[];
  onChange: (rule: DraftRule) => void;
  onRemove: () => void;
}

function valueType(rule: DraftRule): 'text' | 'number' | 'date' {
  const kind = kindOf(rule.field);
  if (kind === 'text') return 'text';
  if (kind === 'date' && rule.op !== 'inTheLast') return 'date';
  return 'number';
}

function RuleValue({ rule, name, libraries, onChange }: Omit<RuleProps, 'onRemove'>) {
  const kind = kindOf(rule.field);
  if (kind === 'boolean') return null;
  if (kind === 'library') {
    return (
      <select
        className="input smart-rule__value"
        aria-label={`${name} library`}
        value={rule.value}
        onChange={(event) => {
          onChange({ ...rule, value: event.target.value });
        }}
      >
        <option value="">Choose a library</option>
        {libraries.map((library) => (
          <option key={library.id} value={String(library.id)}>
            {library.name}
          </option>
        ))}
      </select>
    );
  }
  const type = valueType(rule);
  const input = (which: 'value' | 'second', label: string) => (
    <input
      className="input smart-rule__value"
      type={type}
      inputMode={type === 'number' ? 'decimal' : undefined}
      aria-label={label}
      value={rule[which]}
      onChange={(event) => {
        onChange({ ...rule, [which]: event.target.value });
      }}
    />
  );
  if (rule.op !== 'between') return input('value', `${name} value`);
  return (
    <>
      {input('value', `${name} from`)}
      <span className="smart-rule__and">and</span>
      {input('second', `${name} to`)}
    </>
  );
}

function RuleRow({ rule, name, libraries, onChange, onRemove }: RuleProps) {
  return (
    <li className="smart-rule">
      <select
        className="input"
        aria-label={`${name} field`}
        value={rule.field}
        onChange={(event) => {
          onChange(withField(rule, event.target.value as SmartField));
        }}
      >
        {FIELDS.map((field) => (
          <option key={field} value={field}>
            {FIELD_LABELS[field]}
          </option>
        ))}
      </select>
      <select
        className="input"
        aria-label={`${name} operator`}
        value={rule.op}
        onChange={(event) => {
          onChange({ ...rule, op: event.target.value });
        }}
      >
        {operatorsOf(rule.field).map((op) => (
          <option key={op} value={op}>
            {OPERATOR_LABELS[op]}
          </option>
        ))}
      </select>
      <RuleValue rule={rule} name={name} libraries={libraries} onChange={onChange} />
      <button type="button" className="icon-button" aria-label={`Remove ${name.toLowerCase()}`} onClick={onRemove}>
        <CloseIcon size={18} />
      </button>
    </li>
  );
}

export interface GroupEditorProps {
  group: DraftGroup;
  /** "Rules", "Group 2": how its controls are named to assistive technology. */
  name: string;
  depth: number;
  libraries: readonly FolderLibrary[];
  onChange: (group: DraftGroup) => void;
  /** Absent for the top group, which stays. */
  onRemove?: () => void;
}

/** A group of rules: all or any of them, each a rule or a nested group (at most SMART_RULES_MAX_DEPTH deep). */
export function GroupEditor({ group, name, depth, libraries, onChange, onRemove }: GroupEditorProps) {
  const replace = (index: number, node: DraftNode | null): void => {
    const rules = [...group.rules];
    if (node === null) rules.splice(index, 1);
    else rules[index] = node;
    onChange({ ...group, rules });
  };
  return (
    <fieldset className={depth === 1 ? 'smart-group' : 'smart-group smart-group--nested'}>
      <legend className="smart-group__legend">
        <span>Match</span>
        <select
          className="input"
          aria-label={`${name}: match`}
          value={group.match}
          onChange={(event) => {
            onChange({ ...group, match: event.target.value === 'any' ? 'any' : 'all' });
          }}
        >
          <option value="all">all</option>
          <option value="any">any</option>
        </select>
        <span>of these rules</span>
        {onRemove && (
          <button type="button" className="button button--ghost button--small" onClick={onRemove}>
            Remove group
          </button>
        )}
      </legend>
      <ul className="smart-group__rules">
        {group.rules.map((node, index) =>
          isGroup(node) ? (
            <li key={node.key}>
              <GroupEditor
                group={node}
                name={`${name}, group ${index + 1}`}
                depth={depth + 1}
                libraries={libraries}
                onChange={(changed) => {
                  replace(index, changed);
                }}
                onRemove={() => {
                  replace(index, null);
                }}
              />
            </li>
          ) : (
            <RuleRow
              key={node.key}
              rule={node}
              name={`${name}, rule ${index + 1}`}
              libraries={libraries}
              onChange={(changed) => {
                replace(index, changed);
              }}
              onRemove={() => {
                replace(index, null);
              }}
            />
          ),
        )}
      </ul>
      <div className="smart-group__actions">
        <button
          type="button"
          className="button button--ghost button--small"
          onClick={() => {
            onChange({ ...group, rules: [...group.rules, newRule()] });
          }}
        >
          <PlusIcon size={16} />
          Add rule
        </button>
        {depth < SMART_RULES_MAX_DEPTH && (
          <button
            type="button"
            className="button button--ghost button--small"
            onClick={() => {
              onChange({ ...group, rules: [...group.rules, newGroup(group.match === 'all' ? 'any' : 'all')] });
            }}
          >
            <PlusIcon size={16} />
            Add group
          </button>
        )}
      </div>
    </fieldset>
  );
}
