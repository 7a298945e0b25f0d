import { forwardRef, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import type { OptionsResult } from '../../protocol/start-answers.js';
import { rootProps } from '../root-props.js';
import { warnInvalidProp } from '../dev-warning.js';
import { formatCredits, formatNumber, type Locale } from '../format.js';
import { creditMessages } from '../messages/credit-messages.js';
import { errorMessages, errorText } from '../messages/error-messages.js';
import { useMessages } from '../messages/messages-context.js';
import type { TaskwireMessagesOverride } from '../messages/messages.js';
import { toolMessages, toolName } from '../messages/tool-messages.js';
import { creditCostPreviewMessages } from './credit-cost-preview-messages.js';
import { isWithinBudget } from './is-within-budget.js';

/** Where the quote stands, in TanStack Query's words, so `status={query.status}` passes straight in. */
export type CreditCostPreviewStatus = 'pending' | 'success' | 'error';

/**
 * What a {@link CreditCostPreview} shows, mirrored in its `data-state`: `free` is a quote of 0
 * credits (or `{}` with `unpricedIsFree`), `unpriced` an answer of `{}`, which says only that no
 * monetization is configured (docs/protocol.md, "Options"), not that the task costs nothing;
 * `updating` a quote for earlier params, still shown, marked, while the new params are priced.
 */
export type CreditCostPreviewState =
  'loading' | 'free' | 'priced' | 'unpriced' | 'updating' | 'error';

/** What the preview shows as the price: every state but `updating`, which shows one of these. */
type ShownPrice = Exclude<CreditCostPreviewState, 'updating'>;

/** What the `children` render prop of {@link CreditCostPreview} receives. */
export interface CreditCostPreviewRenderProps {
  /** What the preview shows. */
  state: CreditCostPreviewState;
  /** Whether a known price exceeds `balance`. */
  overBudget: boolean;
  /** Whether the shown price is being replaced by a newer one (`state` is `updating`). */
  isUpdating: boolean;
  /**
   * Whether the user may start the task at the price shown: a current quote (priced, free or
   * unpriced) within `balance`. `false` while loading, updating, in error or over budget, so a start
   * button disabled on `!canStart` never starts a task at a price the user was not shown.
   */
  canStart: boolean;
  /** The quoted credits, when there is a price (`0` when free); `undefined` while unpriced. */
  credits: number | undefined;
}

/** Props of {@link CreditCostPreview}; any other prop goes to the root `<div>`. */
export interface CreditCostPreviewProps extends Omit<ComponentPropsWithoutRef<'div'>, 'children'> {
  /** Where the quote stands. Defaults to `'success'` when `quote` is given, else `'pending'`. */
  status?: CreditCostPreviewStatus;
  /** The options result (`useTaskOptions().data`); `{}` shows as unpriced. Defaults to none. */
  quote?: OptionsResult;
  /**
   * The app knows that a task without a price costs nothing, so `{}` shows as free. Defaults to
   * `false`: `{}` shows "No price quoted".
   */
  unpricedIsFree?: boolean;
  /**
   * The shown price is for earlier params and the new one is on its way (`useTaskOptions().isQuoteStale`):
   * shown as `updating`, and `canStart` is `false`. Defaults to `false`.
   */
  isUpdating?: boolean;
  /**
   * Why the quote failed (`useTaskOptions().error`): shown in the messages' words for its code and
   * reason (the `errors` group), an app's own `Error` by its message. Defaults to none.
   */
  error?: unknown;
  /** Called by the "Try again" button, which is shown in the error state only when this is given. */
  onRetry?: () => void;
  /** The user's credits; a higher price is flagged. Defaults to no budget. */
  balance?: number;
  /** Locale of the figures. Defaults to the provider's `locale`, else the user's. */
  locale?: Locale;
  /**
   * Words to use instead of the provider's (or English), in part: the `credits`,
   * `creditCostPreview`, `tools` and `errors` groups. Defaults to none.
   */
  messages?:
    TaskwireMessagesOverride<'credits' | 'creditCostPreview' | 'tools' | 'errors'> | undefined;
  /** The visible heading of the preview. Defaults to the `creditCostPreview.label` message (`'Cost'`). */
  label?: ReactNode;
  /** Rendered last, with the verdict, for example a start button disabled on `!canStart`. */
  children?: (props: CreditCostPreviewRenderProps) => ReactNode;
}

const COMPONENT = 'CreditCostPreview';
const STATUSES: ReadonlySet<unknown> = new Set(['pending', 'success', 'error']);

/** The English groups the preview reads; nothing else of the messages is in its bundle. */
const ENGLISH = {
  credits: creditMessages,
  creditCostPreview: creditCostPreviewMessages,
  tools: toolMessages,
  errors: errorMessages,
};

function checkQuote(quote: OptionsResult | undefined): OptionsResult | undefined {
  if (quote === undefined) return undefined;
  if (typeof quote !== 'object' || quote === null) {
    warnInvalidProp(COMPONENT, 'quote', quote, 'no quote');
    return undefined;
  }
  const credits = quote.credits;
  if (
    credits !== undefined &&
    !(typeof credits === 'number' && Number.isFinite(credits) && credits >= 0)
  ) {
    warnInvalidProp(COMPONENT, 'quote.credits', credits, 'no price');
    return { ...quote, credits: undefined };
  }
  return quote;
}

function checkBalance(balance: number | undefined): number | undefined {
  if (balance === undefined) return undefined;
  if (typeof balance === 'number' && Number.isFinite(balance)) return balance;
  warnInvalidProp(COMPONENT, 'balance', balance, 'no budget');
  return undefined;
}

/**
 * What a task will cost before the user submits it: loading, free, priced (credits, tool, usage
 * amount), unpriced, or an error with a retry button; a stale price stays visible, marked as
 * updating and busy, while the new params are priced; a price above `balance` is said in words.
 * Its children learn whether to start (`canStart`). The price sits in a polite live region, so a
 * screen reader hears a new price when params change.
 */
export const CreditCostPreview = forwardRef<HTMLDivElement, CreditCostPreviewProps>(
  function CreditCostPreview(
    {
      status: statusProp,
      quote: quoteProp,
      unpricedIsFree = false,
      isUpdating: isUpdatingProp = false,
      error,
      onRetry,
      balance: balanceProp,
      locale: localeProp,
      messages: messagesProp,
      label: labelProp,
      children,
      ...rest
    },
    ref,
  ) {
    const { messages, locale } = useMessages(ENGLISH, messagesProp, localeProp);
    const text = messages.creditCostPreview;
    const credited = (amount: number) => formatCredits(amount, locale, messages.credits);
    const label = labelProp ?? text.label;
    const quote = checkQuote(quoteProp);
    const balance = checkBalance(balanceProp);
    let status: CreditCostPreviewStatus = statusProp ?? (quote ? 'success' : 'pending');
    if (!STATUSES.has(status)) {
      warnInvalidProp(COMPONENT, 'status', statusProp, quote ? "'success'" : "'pending'");
      status = quote ? 'success' : 'pending';
    }
    if (status === 'success' && quote === undefined) {
      warnInvalidProp(COMPONENT, 'quote', quoteProp, "'pending' (a success needs a quote)");
      status = 'pending';
    }

    let shown: ShownPrice;
    switch (status) {
      case 'pending':
        shown = 'loading';
        break;
      case 'error':
        shown = 'error';
        break;
      case 'success':
        if (quote?.credits === 0) shown = 'free';
        else if (quote?.credits !== undefined || quote?.monetization !== undefined)
          shown = 'priced';
        // No credits and no monetization: the service quoted nothing, which is not a price of 0.
        else shown = unpricedIsFree ? 'free' : 'unpriced';
        break;
      default:
        shown = status satisfies never;
    }
    const isUpdating = isUpdatingProp && shown !== 'loading' && shown !== 'error';
    const state: CreditCostPreviewState = isUpdating ? 'updating' : shown;
    const credits = shown === 'priced' || shown === 'free' ? quote?.credits : undefined;
    const overBudget = credits !== undefined && !isWithinBudget(quote, balance);
    // A stale price is not the price of what would start (docs/protocol.md, "The hooks").
    const canStart =
      (state === 'priced' || state === 'free' || state === 'unpriced') && !overBudget;
    const errorMessage = error === undefined ? undefined : errorText(error, messages.errors);

    return (
      <div
        {...rootProps(ref, 'taskwire-cost', state, rest)}
        data-updating={isUpdating ? '' : undefined}
        data-budget={overBudget ? 'over' : undefined}
        aria-busy={state === 'loading' || isUpdating}
      >
        <div className="taskwire-cost__summary" aria-live="polite" aria-atomic="true">
          <span className="taskwire-cost__label">{label}</span>{' '}
          <span className="taskwire-cost__value">
            {shown === 'priced'
              ? credits === undefined
                ? text.noCredits
                : credited(credits)
              : text[shown]}
          </span>
          {overBudget && balance !== undefined && (
            <span className="taskwire-cost__budget"> {text.overBudget(credited(balance))}</span>
          )}
        </div>
        {(shown === 'priced' || shown === 'free') &&
          quote &&
          (quote.monetization || quote.usageAmount !== undefined) && (
            <dl className="taskwire-cost__details">
              {quote.monetization && (
                <div>
                  <dt>{text.tool}</dt>
                  <dd>{toolName(quote.monetization.toolId, messages.tools)}</dd>
                </div>
              )}
              {quote.usageAmount !== undefined && (
                <div>
                  <dt>{text.usage}</dt>
                  <dd>{formatNumber(quote.usageAmount, locale, { maximumFractionDigits: 2 })}</dd>
                </div>
              )}
            </dl>
          )}
        {isUpdating && <p className="taskwire-cost__note">{text.updating}</p>}
        {shown === 'error' && (
          <div className="taskwire-cost__error">
            {errorMessage && <p className="taskwire-cost__note">{errorMessage}</p>}
            {onRetry && (
              <button type="button" className="taskwire-button" onClick={() => onRetry()}>
                {text.retry}
              </button>
            )}
          </div>
        )}
        {children?.({ state, overBudget, isUpdating, canStart, credits })}
      </div>
    );
  },
);
