import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { LibraryClientMessages as Texts, type Library } from '@tonearm/contract';
import { useId, useState, type SubmitEvent } from 'react';
import { describeError } from '../../lib/api-client.js';
import { api } from '../../lib/api.js';
import { useAlerts } from '../../shell/alerts/useAlerts.js';
import { TextField } from '../../ui/TextField.js';
import { useSetLibraryAccess } from './mutations.js';

/** Listeners offered per search. */
const MATCHES_SHOWN = 8;

type Member = Library['members'][number];

/** Listeners whose name holds the text typed (administrators see every library anyway). */
function useListenerMatches(q: string, chosen: readonly Member[]) {
  const text = q.trim();
  const matches = useQuery({
    queryKey: ['users', 'library-members', text],
    queryFn: ({ signal }) => api.users.list({ query: { q: text, limit: MATCHES_SHOWN } }, { signal }),
    enabled: text !== '',
    placeholderData: keepPreviousData,
  });
  const taken = new Set(chosen.map((member) => member.id));
  const users = (matches.data?.users ?? []).filter((user) => user.role !== 'ADMIN' && !taken.has(user.id));
  return { users, searched: text !== '' && matches.isSuccess };
}

/**
 * Who sees a library (issue 25): every listener, or the listeners chosen (administrators always do). Songs, albums and
 * artists of a library hidden from a listener are not found, for them, anywhere in Tonearm.
 */
export function LibraryAudienceForm({ library, onDone }: { library: Library; onDone: () => void }) {
  const [everyone, setEveryone] = useState(library.everyone);
  const [members, setMembers] = useState<Member[]>(library.members);
  const [q, setQ] = useState('');
  const { users, searched } = useListenerMatches(q, members);
  const save = useSetLibraryAccess();
  const alerts = useAlerts();
  const name = useId();

  const onSubmit = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    save.mutate(
      { libraryId: library.id, body: { everyone, memberIds: members.map((member) => member.id) } },
      {
        onSuccess: (saved) => {
          alerts.success(Texts.accessSaved(saved.name));
          onDone();
        },
        onError: (failure) => {
          alerts.error(Texts.failedToSaveAccess, describeError(failure));
        },
      },
    );
  };

  return (
    <form className="library-audience" aria-label={`${Texts.whoSees}: ${library.name}`} onSubmit={onSubmit}>
      <fieldset className="library-audience__choice">
        <legend>{Texts.whoSees}</legend>
        <label>
          <input
            type="radio"
            name={name}
            checked={everyone}
            onChange={() => {
              setEveryone(true);
            }}
          />{' '}
          {Texts.everyoneSees}
        </label>
        <label>
          <input
            type="radio"
            name={name}
            checked={!everyone}
            onChange={() => {
              setEveryone(false);
            }}
          />{' '}
          {Texts.chosenSee}
        </label>
      </fieldset>
      {!everyone && (
        <div className="library-audience__members">
          {members.length === 0 ? (
            <p className="muted">{Texts.noMembers}</p>
          ) : (
            <ul className="library-audience__chips" aria-label={Texts.chosenSee}>
              {members.map((member) => (
                <li key={member.id} className="badge">
                  {member.username}
                  <button
                    type="button"
                    className="button button--ghost button--small"
                    aria-label={Texts.removeMember(member.username)}
                    onClick={() => {
                      setMembers(members.filter((kept) => kept.id !== member.id));
                    }}
                  >
                    ×
                  </button>
                </li>
              ))}
            </ul>
          )}
          <TextField label={Texts.memberSearch} hint={Texts.memberSearchHint} name="member" value={q} onValue={setQ} />
          {searched && users.length === 0 && <p className="muted">{Texts.noUsersFound}</p>}
          {users.length > 0 && (
            <ul className="library-audience__matches">
              {users.map((user) => (
                <li key={user.id}>
                  <button
                    type="button"
                    className="button button--ghost button--small"
                    onClick={() => {
                      setMembers([...members, { id: user.id, username: user.username }]);
                      setQ('');
                    }}
                  >
                    {Texts.addMember(user.username)}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <div className="library-rename__actions">
        <button type="submit" className="button button--primary button--small" disabled={save.isPending}>
          {Texts.saveAccess}
        </button>
        <button type="button" className="button button--ghost button--small" onClick={onDone}>
          {Texts.cancel}
        </button>
      </div>
    </form>
  );
}
