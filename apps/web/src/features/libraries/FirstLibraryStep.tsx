import { useQuery } from '@tanstack/react-query';
import { LibraryClientMessages as Texts } from '@tonearm/contract';
import { useId } from 'react';
import { isAdmin, useCurrentUser } from '../../shell/auth/useAuth.js';
import { FolderIcon } from '../../ui/icons.js';
import { AddLibraryForm } from './AddLibraryForm.js';
import { libraryQueries } from './queries.js';
import '../../ui/card.css';
import '../../ui/page.css';
import './Libraries.css';

/**
 * The administrator's first step on the home page while the server has no library: what a library is, and the form
 * that adds one. Others never see it (nor ask for the list, which is the administrators'); it goes away once a library
 * exists, and stays away when the list cannot be read.
 */
export function FirstLibraryStep() {
  const user = useCurrentUser();
  const admin = isAdmin(user);
  const list = useQuery({ ...libraryQueries.list({ alertOnError: false }), enabled: admin });
  const titleId = useId();
  if (!admin || list.data?.libraries.length !== 0) return null;
  return (
    <section className="card first-step" aria-labelledby={titleId}>
      <p className="eyebrow">
        <FolderIcon size={16} /> {Texts.firstStepEyebrow}
      </p>
      <h2 id={titleId} className="section-title">
        {Texts.firstStepTitle}
      </h2>
      <p className="first-step__intro">{Texts.firstStepIntro}</p>
      <AddLibraryForm label={Texts.firstStepTitle} />
    </section>
  );
}
