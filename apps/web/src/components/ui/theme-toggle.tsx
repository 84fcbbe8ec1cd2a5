import { Moon, Sun } from 'lucide-react';
import { useEffect, useState } from 'react';
import { buttonClasses } from './button';

const STORAGE_KEY = 'conductor-theme';
type Theme = 'light' | 'dark';

function systemTheme(): Theme {
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** Follows the system setting until the user picks a theme. */
export function ThemeToggle({ withLabel = false }: { withLabel?: boolean }) {
  const [theme, setTheme] = useState<Theme | null>(null);
  useEffect(() => {
    const stored = window.localStorage.getItem(STORAGE_KEY);
    const initial = stored === 'light' || stored === 'dark' ? stored : systemTheme();
    if (stored) document.documentElement.dataset.theme = stored;
    setTheme(initial);
  }, []);
  const next: Theme = theme === 'dark' ? 'light' : 'dark';
  const label = `Switch to ${next} theme`;
  return (
    <button
      type="button"
      className={withLabel ? buttonClasses('ghost', 'md', 'justify-start') : buttonClasses('ghost', 'icon')}
      aria-label={label}
      title={label}
      onClick={() => {
        document.documentElement.dataset.theme = next;
        window.localStorage.setItem(STORAGE_KEY, next);
        setTheme(next);
      }}
    >
      {theme === 'dark' ? <Sun className="size-5" /> : <Moon className="size-5" />}
      {withLabel && <span>{theme === 'dark' ? 'Light theme' : 'Dark theme'}</span>}
    </button>
  );
}
