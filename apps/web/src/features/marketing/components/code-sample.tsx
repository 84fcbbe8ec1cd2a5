/** The hero's code sample: the only change an OpenAI SDK user makes. Decorative colours come from tokens. */
export function CodeSample() {
  return (
    <figure className="overflow-hidden rounded-xl border border-border bg-card shadow-xl">
      <figcaption className="flex items-center gap-2 border-b border-border bg-muted px-4 py-2.5 text-xs text-muted-foreground">
        <span className="flex gap-1.5" aria-hidden="true">
          <span className="size-2.5 rounded-full bg-danger/70" />
          <span className="size-2.5 rounded-full bg-warning/70" />
          <span className="size-2.5 rounded-full bg-success/70" />
        </span>
        <span className="font-mono">app.ts</span>
      </figcaption>
      <pre className="p-4 font-mono text-[13px] leading-6 break-words whitespace-pre-wrap sm:p-6">
        <code>
          <span className="text-accent-foreground">import</span> OpenAI <span className="text-accent-foreground">from</span>{' '}
          <span className="text-success">'openai'</span>;{'\n\n'}
          <span className="text-accent-foreground">const</span> client = <span className="text-accent-foreground">new</span> OpenAI({'{'}
          {'\n'}
          {'  '}baseURL: <span className="text-success">'https://conductor.dev/v1'</span>,{'\n'}
          {'  '}apiKey: process.env.CONDUCTOR_API_KEY,{'\n'}
          {'}'});{'\n\n'}
          <span className="text-accent-foreground">const</span> reply = <span className="text-accent-foreground">await</span>{' '}
          client.chat.completions.create({'{'}
          {'\n'}
          {'  '}model: <span className="text-success">'gpt-4o'</span>,{'\n'}
          {'  '}messages: [{'{'} role: <span className="text-success">'user'</span>, content: <span className="text-success">'Hello!'</span>{' '}
          {'}'}],{'\n'}
          {'}'});
        </code>
      </pre>
    </figure>
  );
}
