/**
 * 403: a page the account may not use. At /403 it is a public page; on a typed path of the
 * portal the caller may not open, it shows inside the signed-in shell, at that path.
 */
import { useContext } from 'react';
import { ShellContext } from '../../app/shell/shellContext.ts';
import { Forbidden } from '../../components/Forbidden.tsx';
import { StaticLayout } from './StaticLayout.tsx';

export default function ForbiddenPage() {
  if (useContext(ShellContext) !== null) return <Forbidden />;
  return (
    <StaticLayout narrow>
      <Forbidden />
    </StaticLayout>
  );
}
