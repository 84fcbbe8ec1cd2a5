import { redirect } from 'react-router';

/** Any other path redirects to `/` (spec route table). */
export async function clientLoader() {
  return redirect('/');
}

export default function CatchAll() {
  return null;
}
