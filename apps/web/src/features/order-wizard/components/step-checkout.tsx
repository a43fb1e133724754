import { useId, useRef, useState } from 'react';
import { AUTH_MESSAGE, emailOnItsWayBody, NO_PASSWORD_NEEDED } from '@app/domain/auth/rules';
import {
  ORDER_FORM_MESSAGE,
  splitCheckoutName,
  USER_TYPE,
  validateCheckout,
  type CheckoutErrors,
  type UserType,
} from '@app/domain/order-form/rules';
import { BILLING_LIMITS, EMPTY_BILLING, type BillingDetails } from '@app/domain/transaction/rules';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { inputClass } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-client';
import { checkmail, requestOrderMagicLink } from '../api/account';
import { useFieldFocus } from '../hooks/use-field-focus';
import { useWizardCheckout, useWizardForm, useWizardSubmission } from '../hooks/wizard-contexts';
import { PhoneInput } from '@/components/ui/phone-input';
import { internationalPhone, isPhoneValid } from '@/lib/phone';
import { Check } from './check';
import { describedBy, FieldError } from './controls';

export type AccountInput = (
  | { kind: 'signed-in' }
  | { kind: 'new'; firstName: string; lastName: string; email: string; phone: string; calls: boolean }
  | { kind: 'existing'; email: string; password: string }
) & {
  /** ADR 0085: billing details typed in the checkout's section, saved to the profile before the order is paid. */
  billing?: BillingDetails | undefined;
};

interface StepCheckoutProps {
  onCreate: (account: AccountInput) => void;
  creating: boolean;
  failure: string | null;
  editing: boolean;
  onForgotPassword: () => void;
}

type Errors = CheckoutErrors & { form?: string };
type CheckoutField = 'name' | 'email' | 'phone' | 'terms' | 'password';

function TextInput({ label, error, ...props }: { label: string; error: string | undefined } & React.ComponentProps<'input'>) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        className={inputClass}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(error && `${id}-error`)}
        {...props}
      />
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** Step 3 (SPEC §4: complete once the contact details are valid): discount, account and create. */
/** ADR 0041: the texts the box accepts, served by the product; a new tab, so nothing typed here is lost. */
function LegalLink({ href, children }: { href: string; children: string }) {
  return (
    <a href={href} target="_blank" rel="noopener" className="text-primary-text underline underline-offset-2 hover:no-underline">
      {children}
    </a>
  );
}

/**
 * ADR 0085: "Billing details (for the receipt)", collapsed: what the receipt of this payment prints as the
 * buyer (saved to the profile). Left closed, the profile's details (or the name) are used.
 */
function BillingSection({
  value,
  onChange,
  disabled,
  open,
}: {
  value: BillingDetails;
  onChange: (value: BillingDetails) => void;
  disabled: boolean;
  open: boolean;
}) {
  const id = useId();
  const set = (patch: Partial<BillingDetails>) => onChange({ ...value, ...patch });
  return (
    <details className="rounded-md border border-slate-300 bg-white" open={open || undefined}>
      <summary className="cursor-pointer px-3 py-2 text-sm font-medium text-slate-800">Billing details (for the receipt)</summary>
      <fieldset className="grid gap-3 px-3 pt-1 pb-3 sm:grid-cols-2" disabled={disabled}>
        <legend className="sr-only">Billing details (for the receipt)</legend>
        <TextInput
          label="Name on the receipt"
          autoComplete="name"
          maxLength={BILLING_LIMITS.name}
          value={value.name}
          error={undefined}
          onChange={(e) => set({ name: e.target.value })}
        />
        <TextInput
          label="Company"
          autoComplete="organization"
          maxLength={BILLING_LIMITS.company}
          value={value.company}
          error={undefined}
          onChange={(e) => set({ company: e.target.value })}
        />
        <TextInput
          label="Tax ID (VAT number)"
          maxLength={BILLING_LIMITS.taxId}
          value={value.taxId}
          error={undefined}
          onChange={(e) => set({ taxId: e.target.value })}
        />
        <div className="flex flex-col gap-1 sm:col-span-2">
          <label htmlFor={`${id}-address`} className="text-sm font-medium text-slate-800">
            Billing address
          </label>
          <textarea
            id={`${id}-address`}
            rows={3}
            maxLength={BILLING_LIMITS.address}
            className={inputClass}
            value={value.address}
            onChange={(e) => set({ address: e.target.value })}
          />
        </div>
      </fieldset>
    </details>
  );
}

export function StepCheckout({ onCreate, creating, failure, editing, onForgotPassword }: StepCheckoutProps) {
  const { checkout, setCheckout } = useWizardCheckout();
  const { customer } = useWizardForm();
  const { locked } = useWizardSubmission();
  const { fieldRef, focusField } = useFieldFocus<CheckoutField>();
  const [errors, setErrors] = useState<Errors>({});
  const [password, setPassword] = useState('');
  const [billing, setBilling] = useState<BillingDetails | null>(null);
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; title?: string; text: string } | null>(null);
  const set = (patch: Partial<typeof checkout>) => setCheckout((current) => ({ ...current, ...patch }));
  const id = useId();
  // ADR 0042: leaving a field shows its error once it was changed, or after a Create attempt; not while
  // a keyboard user tabs through the empty form.
  const changed = useRef(new Set<string>());
  const attempted = useRef(false);
  const checkOnBlur = (field: string) => attempted.current || changed.current.has(field);
  const change = (field: string, patch: Partial<typeof checkout>) => {
    changed.current.add(field);
    set(patch);
  };

  const validate = (): Errors =>
    validateCheckout({
      userType: checkout.userType,
      // Only a new customer gives a name (the field is not shown otherwise).
      name: checkout.userType === USER_TYPE.newCustomer ? checkout.name : undefined,
      email: checkout.email,
      password,
      phone: checkout.phone,
      terms: checkout.terms,
      isPhoneValid: isPhoneValid(checkout.phone, checkout.country),
    });

  const onEmailBlur = async () => {
    if (!checkOnBlur('email')) return;
    const email = checkout.email.trim();
    const problem = validate().email;
    setErrors((e) => ({ ...e, email: problem }));
    if (problem || checkout.userType !== USER_TYPE.newCustomer) return;
    try {
      const { status } = await checkmail(email);
      // CONTRACT "Identity": 'fail' means the email is registered: switch to account login.
      if (status === 'fail') {
        set({ userType: USER_TYPE.hasAccount });
        setNotice({ tone: 'error', text: AUTH_MESSAGE.emailRegistered });
      }
    } catch {
      // The check is a convenience: sign-up answers the same question at create time.
    }
  };

  const billingInput = billing ? { billing } : {};
  const submit = () => {
    if (customer) {
      onCreate({ kind: 'signed-in', ...billingInput });
      return;
    }
    attempted.current = true;
    const found = validate();
    const relevant: Errors =
      checkout.userType === USER_TYPE.hasAccount ? { email: found.email, password: found.password } : { ...found, password: undefined };
    setErrors(relevant);
    const first = (['name', 'email', 'phone', 'terms', 'password'] as const).find((field) => relevant[field]);
    if (first) {
      focusField(first);
      return;
    }
    if (checkout.userType === USER_TYPE.hasAccount) {
      onCreate({ kind: 'existing', email: checkout.email, password, ...billingInput });
      return;
    }
    onCreate({
      kind: 'new',
      ...splitCheckoutName(checkout.name),
      email: checkout.email,
      phone: internationalPhone(checkout.phone, checkout.country),
      calls: checkout.calls,
      ...billingInput,
    });
  };

  const magicLink = async () => {
    if (validate().email) {
      setErrors((e) => ({ ...e, email: AUTH_MESSAGE.emailMandatory }));
      return;
    }
    try {
      await requestOrderMagicLink(checkout.email);
      setNotice({ tone: 'success', title: AUTH_MESSAGE.emailOnItsWay, text: emailOnItsWayBody(checkout.email.trim()) });
    } catch (error) {
      setNotice({ tone: 'error', text: errorMessage(error) });
    }
  };

  return (
    <div className="flex flex-col gap-6">
      {!customer && (
        <fieldset className="flex flex-col gap-4" disabled={locked}>
          <legend className="mb-1 text-sm font-medium text-slate-800">Your account</legend>
          <div className="grid grid-cols-2 gap-2" role="radiogroup" aria-label="Account">
            {(
              [
                [USER_TYPE.newCustomer, "I'm new"],
                [USER_TYPE.hasAccount, 'I have an account'],
              ] as const satisfies readonly (readonly [UserType, string])[]
            ).map(([value, label]) => (
              <label
                key={value}
                className="flex cursor-pointer items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm has-checked:border-primary has-checked:ring-2 has-checked:ring-primary/40"
              >
                <input
                  type="radio"
                  name="userType"
                  className="accent-primary"
                  checked={checkout.userType === value}
                  onChange={() => {
                    set({ userType: value });
                    setErrors({});
                    setNotice(null);
                  }}
                />
                {label}
              </label>
            ))}
          </div>
          {notice && (
            <Alert tone={notice.tone} title={notice.title}>
              {notice.text}
            </Alert>
          )}
          {checkout.userType === USER_TYPE.newCustomer ? (
            <>
              <TextInput
                label="Name"
                autoComplete="name"
                ref={fieldRef('name')}
                value={checkout.name}
                error={errors.name}
                onChange={(e) => change('name', { name: e.target.value })}
                onBlur={() => checkOnBlur('name') && setErrors((x) => ({ ...x, name: validate().name }))}
              />
              <TextInput
                label="Email"
                type="email"
                autoComplete="email"
                ref={fieldRef('email')}
                value={checkout.email}
                error={errors.email}
                onChange={(e) => change('email', { email: e.target.value })}
                onBlur={() => void onEmailBlur()}
              />
              <p className="-mt-2 text-sm text-slate-600">{NO_PASSWORD_NEEDED}</p>
              <div className="flex flex-col gap-1">
                <label htmlFor={`${id}-phone`} className="text-sm font-medium text-slate-800">
                  Phone
                </label>
                <PhoneInput
                  id={`${id}-phone`}
                  country={checkout.country}
                  phone={checkout.phone}
                  inputRef={fieldRef('phone')}
                  invalid={Boolean(errors.phone)}
                  describedBy={describedBy(errors.phone && `${id}-phone-error`)}
                  onChange={(next) => change('phone', next)}
                  onBlur={() => checkOnBlur('phone') && setErrors((x) => ({ ...x, phone: validate().phone }))}
                />
                <FieldError id={`${id}-phone-error`} message={errors.phone} />
              </div>
              <div className="flex flex-col gap-1" ref={fieldRef('terms')} tabIndex={-1}>
                <Check
                  label={
                    <>
                      I accept the <LegalLink href={paths.terms}>Terms of Use</LegalLink> and the{' '}
                      <LegalLink href={paths.privacy}>Privacy and Cookies Policy</LegalLink>
                    </>
                  }
                  checked={checkout.terms}
                  onChange={(terms) => {
                    set({ terms });
                    if (terms) setErrors((x) => ({ ...x, terms: undefined }));
                  }}
                />
                <FieldError id={`${id}-terms-error`} message={errors.terms} />
              </div>
              <Check label="You may call me about my order" checked={checkout.calls} onChange={(calls) => set({ calls })} />
            </>
          ) : (
            <>
              <TextInput
                label="Email"
                type="email"
                autoComplete="username"
                ref={fieldRef('email')}
                value={checkout.email}
                error={errors.email}
                onChange={(e) => change('email', { email: e.target.value })}
                onBlur={() => checkOnBlur('email') && setErrors((x) => ({ ...x, email: validate().email }))}
              />
              <TextInput
                label="Password"
                type="password"
                autoComplete="current-password"
                ref={fieldRef('password')}
                value={password}
                error={errors.password}
                onChange={(e) => {
                  changed.current.add('password');
                  setPassword(e.target.value);
                }}
                onBlur={() =>
                  checkOnBlur('password') &&
                  setErrors((x) => ({ ...x, password: password ? undefined : ORDER_FORM_MESSAGE.passwordRequired }))
                }
              />
              <div className="flex flex-wrap items-center justify-between gap-3">
                <Button variant="link" onClick={onForgotPassword}>
                  Forgot password?
                </Button>
                <Button variant="secondary" onClick={() => void magicLink()}>
                  Email me a sign-in link
                </Button>
              </div>
            </>
          )}
        </fieldset>
      )}
      {!editing && (
        <BillingSection
          value={billing ?? customer?.billing ?? EMPTY_BILLING}
          onChange={setBilling}
          disabled={locked}
          open={billing !== null}
        />
      )}
      {failure && <Alert tone="error">{failure}</Alert>}
      <Button type="button" busy={creating} disabled={locked} onClick={submit} className="py-3 text-base">
        {editing ? 'Update order' : 'Create order'}
      </Button>
    </div>
  );
}
