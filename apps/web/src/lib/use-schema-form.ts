import { type FormEvent, useCallback, useRef, useState } from 'react';
import { toast } from './toast';

/** The schema is downloaded with the form's first use: a dropped connection then is said once per submit. */
export const FORM_LOAD_FAILED = 'Could not load the form. Check your connection and try again.';

/** The part of a zod schema the form uses (structural, so zod itself is only loaded with the schema). */
export interface FormSchema<TOutput> {
  safeParse(values: unknown): { success: true; data: TOutput } | { success: false; error: { issues: readonly FormIssue[] } };
}
interface FormIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

type FormValues = Record<string, string | boolean>;
type FieldElement = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
export type FormErrors<TValues> = Partial<Record<keyof TValues, string>>;

/** The first message per field, as react-hook-form's zod resolver reports them. */
export function firstErrors<TValues>(issues: readonly FormIssue[]): FormErrors<TValues> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const name = issue.path[0];
    if (typeof name === 'string' && errors[name] === undefined) errors[name] = issue.message;
  }
  return errors as FormErrors<TValues>;
}

/**
 * A small form hook for the public sign-in pages, in place of react-hook-form and its zod
 * resolver (about 25 KB gzip with zod). Same behaviour: uncontrolled inputs, validation with
 * the shared schema on submit (loaded then, or as soon as the form gets focus), focus on the
 * first invalid field, and live re-validation of a field once the form has been submitted.
 */
export function useSchemaForm<TValues extends FormValues, TOutput>(options: {
  schema: () => Promise<FormSchema<TOutput>>;
  defaultValues: TValues;
}) {
  type Name = keyof TValues & string;
  const [errors, setErrors] = useState<FormErrors<TValues>>({});
  const [isSubmitting, setSubmitting] = useState(false);
  const [isSubmitted, setSubmitted] = useState(false);
  const fields = useRef(new Map<Name, FieldElement>());
  const loaded = useRef<FormSchema<TOutput> | null>(null);
  const loading = useRef<Promise<FormSchema<TOutput>> | null>(null);
  const submitted = useRef(false);
  const { schema, defaultValues } = options;

  /** One download at a time; a failed one is forgotten, so the next focus or submit tries again. */
  const loadSchema = useCallback(() => {
    loading.current ??= schema().then(
      (result) => {
        loaded.current = result;
        return result;
      },
      (error: unknown) => {
        loading.current = null;
        throw error;
      },
    );
    return loading.current;
  }, [schema]);

  /** Downloads the schema ahead of the submit (on focus); a failure waits for the submit to say so. */
  const preload = useCallback(
    () =>
      loadSchema().then(
        () => undefined,
        () => undefined,
      ),
    [loadSchema],
  );

  const values = useCallback((): TValues => {
    const current: FormValues = { ...defaultValues };
    for (const [name, element] of fields.current)
      current[name] = element instanceof HTMLInputElement && element.type === 'checkbox' ? element.checked : element.value;
    return current as TValues;
  }, [defaultValues]);

  /** After the first submit, a change re-checks the whole form and updates that field's message only. */
  const revalidate = useCallback(
    (name: Name) => {
      if (!submitted.current || !loaded.current) return;
      const result = loaded.current.safeParse(values());
      const message = result.success ? undefined : firstErrors<TValues>(result.error.issues)[name];
      setErrors((previous) => (previous[name] === message ? previous : { ...previous, [name]: message }));
    },
    [values],
  );

  const register = (name: Name) => {
    const initial: string | boolean = defaultValues[name] ?? '';
    const defaults: { defaultValue?: string; defaultChecked?: boolean } =
      typeof initial === 'boolean' ? { defaultChecked: initial } : { defaultValue: initial };
    return {
      name,
      ...defaults,
      ref: (element: FieldElement | null) => {
        if (element) fields.current.set(name, element);
        else fields.current.delete(name);
      },
      onChange: () => revalidate(name),
    };
  };

  const setFocus = (name: Name, options?: FocusOptions) => fields.current.get(name)?.focus(options);

  const setValue = (name: Name, value: string) => {
    const element = fields.current.get(name);
    if (element) element.value = value;
    revalidate(name);
  };

  /** A message from the server on a field (e.g. a taken e-mail). */
  const setError = (name: Name, message: string, focus = false) => {
    setErrors((previous) => ({ ...previous, [name]: message }));
    if (focus) setFocus(name);
  };

  /** Back to the default values, as a fresh form (no messages, not submitted). */
  const reset = () => {
    submitted.current = false;
    setSubmitted(false);
    setErrors({});
    for (const [name, element] of fields.current) {
      const initial = defaultValues[name];
      if (element instanceof HTMLInputElement && element.type === 'checkbox') element.checked = initial === true;
      else element.value = typeof initial === 'string' ? initial : '';
    }
  };

  const handleSubmit = (onValid: (data: TOutput) => Promise<void> | void) => async (event: FormEvent) => {
    event.preventDefault();
    setSubmitting(true);
    try {
      let formSchema: FormSchema<TOutput>;
      try {
        formSchema = await loadSchema();
      } catch {
        toast.error(FORM_LOAD_FAILED);
        return;
      }
      const parsed = formSchema.safeParse(values());
      submitted.current = true;
      setSubmitted(true);
      if (!parsed.success) {
        const next = firstErrors<TValues>(parsed.error.issues);
        setErrors(next);
        const first = [...fields.current.keys()].find((name) => next[name] !== undefined);
        if (first) setFocus(first);
        return;
      }
      setErrors({});
      await onValid(parsed.data);
    } finally {
      setSubmitting(false);
    }
  };

  return {
    register,
    errors,
    isSubmitting,
    isSubmitted,
    handleSubmit,
    getValues: values,
    setValue,
    reset,
    setFocus,
    setError,
    preload,
  };
}
