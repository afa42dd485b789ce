import { DemoCards, DemoPayRequest, type DemoPayResponse, type Order } from '@tonearm/contract';
import { useState, type SubmitEvent } from 'react';
import { describeError, isApiError } from '../../lib/api-client.js';
import { fieldErrorsOf, type FieldErrors } from '../../lib/field-errors.js';
import { UiMessages } from '../../lib/ui-messages.js';
import { useAlerts } from '../../shell/alerts/useAlerts.js';
import { TextField } from '../../ui/TextField.js';
import { usePayDemoOrder } from './mutations.js';
import '../../ui/buttons.css';
import '../../ui/card.css';
import '../../ui/forms.css';
import './PaymentPage.css';
import './DemoCardForm.css';

type Field = 'cardNumber' | 'expiry' | 'cvc';

export interface DemoCardFormProps {
  order: Order;
  onPaid: (result: DemoPayResponse) => void;
  /** A declined or failed payment closes the order on the server; the user starts a new checkout. */
  onFailed: (reason: string) => void;
}

/** The demo provider's test checkout: no money moves; only the documented test cards are accepted. */
export function DemoCardForm({ order, onPaid, onFailed }: DemoCardFormProps) {
  const [values, setValues] = useState({ cardNumber: '', expiry: '', cvc: '' });
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const pay = usePayDemoOrder();
  const alerts = useAlerts();

  const onSubmit = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const parsed = DemoPayRequest.safeParse(values);
    setErrors(fieldErrorsOf<Field>(parsed));
    if (!parsed.success) return;
    pay.mutate(
      { orderId: order.id, card: parsed.data },
      {
        onSuccess: (result) => {
          alerts.success(UiMessages.premiumActive);
          onPaid(result);
        },
        onError: (error) => {
          if (isApiError(error) && error.field && error.field in values) {
            setErrors({ [error.field]: error.message });
            return;
          }
          // Said once, by the page's "Payment result" (issue 26: a decline was also a red alert, the same words).
          onFailed(describeError(error) ?? UiMessages.paymentFailed);
        },
      },
    );
  };

  const field = (name: Field, label: string, autoComplete: string, placeholder: string) => (
    <TextField
      label={label}
      error={errors[name]}
      name={name}
      inputMode="numeric"
      autoComplete={autoComplete}
      placeholder={placeholder}
      required
      value={values[name]}
      onValue={(value) => {
        setValues({ ...values, [name]: value });
      }}
    />
  );

  return (
    <form className="form card demo-card" aria-label="Pay with a test card" noValidate onSubmit={onSubmit}>
      <h2 className="plan__name">Pay for order #{order.id}</h2>
      <p className="muted">
        This server uses the demo checkout. Use the test card <strong>{DemoCards.success}</strong> with any future
        expiry and any CVC.
      </p>
      {field('cardNumber', 'Card number', 'cc-number', '4242 4242 4242 4242')}
      <div className="form__row">
        {field('expiry', 'Expiry (MM/YY)', 'cc-exp', '12/30')}
        {field('cvc', 'CVC', 'cc-csc', '123')}
      </div>
      <button type="submit" className="button button--primary button--block" disabled={pay.isPending}>
        {pay.isPending ? 'Paying…' : 'Pay now'}
      </button>
    </form>
  );
}
