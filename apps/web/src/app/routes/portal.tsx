import { redirect } from 'react-router';

/** `/portal` (the developer portal link) opens the dashboard; its guard handles sign-in. */
export async function clientLoader() {
  return redirect('/dashboard');
}

export default function Portal() {
  return null;
}
