import { MODEL_ALIASES, MODELS, PLANS, PROVIDER_IDS, PROVIDER_NAMES, limitsForPlan } from '@conductor/shared';

/**
 * Tables the docs take from the product's own constants instead of copying them, so a new
 * model, price or limit shows up in the docs with the next build. A Markdown line
 * `{{name}}` is replaced by the fragment of that name.
 */
const number = new Intl.NumberFormat('en-US');
function usd(value: number): string {
  const [whole, decimals = ''] = value.toFixed(3).replace(/0+$/, '').split('.');
  return `$${whole}.${decimals.padEnd(2, '0')}`;
}

function modelsTable(): string {
  const rows = MODELS.map((model) => {
    const aliases = Object.entries(MODEL_ALIASES)
      .filter(([, target]) => target === model.id)
      .map(([alias]) => `\`${alias}\``)
      .join(', ');
    return `| \`${model.id}\` | ${PROVIDER_NAMES[model.provider]} | ${model.modelClass} | ${number.format(model.contextLength)} | ${usd(model.inputPerMillion)} | ${usd(model.outputPerMillion)} | ${aliases || '—'} |`;
  });
  return [
    '| Model | Provider | Class | Context (tokens) | Input / 1M | Output / 1M | Aliases |',
    '| --- | --- | --- | ---: | ---: | ---: | --- |',
    ...rows,
  ].join('\n');
}

function providersTable(): string {
  const rows = PROVIDER_IDS.map((provider) => {
    const models = MODELS.filter((model) => model.provider === provider).map((model) => `\`${model.id}\``);
    return `| \`${provider}\` | ${PROVIDER_NAMES[provider]} | ${models.join(', ')} |`;
  });
  return ['| Provider id | Name | Models |', '| --- | --- | --- |', ...rows].join('\n');
}

function plansTable(): string {
  const rows = PLANS.map((plan) => {
    const tokens = plan.tokensPerMonth === null ? 'Unlimited' : number.format(plan.tokensPerMonth);
    return `| ${plan.name} | ${tokens} | ${number.format(plan.requestsPerMinute)} | ${plan.price.monthly === 0 ? 'Free' : `$${plan.price.monthly}/month`} |`;
  });
  const byo = limitsForPlan('byo-keys');
  rows.push(`| Bring Your Own Keys | No quota (your provider bills you) | ${number.format(byo.requestsPerMinute)} | Free on our side |`);
  return ['| Plan | Tokens per month | Requests per minute | Price |', '| --- | ---: | ---: | --- |', ...rows].join('\n');
}

const FRAGMENTS: Record<string, () => string> = {
  'models-table': modelsTable,
  'providers-table': providersTable,
  'plans-table': plansTable,
};

export function expandFragments(markdown: string, file: string): string {
  return markdown.replace(/^\{\{([a-z-]+)\}\}$/gm, (_match, name: string) => {
    const fragment = FRAGMENTS[name];
    if (!fragment) throw new Error(`${file}: unknown docs fragment {{${name}}}`);
    return fragment();
  });
}
