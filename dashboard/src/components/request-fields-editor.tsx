import { type ApiError, fieldError } from '../api/errors.js';
import { METHODS, type RequestFields } from '../lib/request-fields.js';
import { Field } from './field.js';

/** The webhook request part of the event and cron forms: URL, method, headers, payload, retries. */
export function RequestFieldsEditor({
  fields,
  onChange,
  error,
}: {
  fields: RequestFields;
  onChange: (fields: RequestFields) => void;
  error: ApiError | undefined;
}) {
  const set = <K extends keyof RequestFields>(key: K, value: RequestFields[K]) =>
    onChange({ ...fields, [key]: value });
  return (
    <>
      <div className="row">
        <Field label="Method" error={fieldError(error, 'method')}>
          {(props) => (
            <select
              {...props}
              value={fields.method}
              onChange={(e) => set('method', e.target.value as RequestFields['method'])}
            >
              {METHODS.map((method) => (
                <option key={method}>{method}</option>
              ))}
            </select>
          )}
        </Field>
        <div className="grow">
          <Field
            label="Webhook URL"
            error={fieldError(error, 'webhook_url')}
            hint="Where the request goes: an http:// or https:// URL."
          >
            {(props) => (
              <input
                {...props}
                type="url"
                inputMode="url"
                placeholder="https://example.com/hooks/reminder"
                required
                value={fields.webhookUrl}
                onChange={(e) => set('webhookUrl', e.target.value)}
              />
            )}
          </Field>
        </div>
      </div>
      <Field
        label="Payload (JSON)"
        error={fieldError(error, 'payload')}
        hint="Sent as the JSON body. Leave empty for none."
      >
        {(props) => (
          <textarea
            {...props}
            className="mono"
            rows={4}
            spellCheck={false}
            placeholder='{ "user": 42 }'
            value={fields.payload}
            onChange={(e) => set('payload', e.target.value)}
          />
        )}
      </Field>
      <Field
        label="Headers (JSON object)"
        error={fieldError(error, 'headers')}
        hint="String values only. Leave empty for none."
      >
        {(props) => (
          <textarea
            {...props}
            className="mono"
            rows={2}
            spellCheck={false}
            placeholder='{ "x-token": "abc" }'
            value={fields.headers}
            onChange={(e) => set('headers', e.target.value)}
          />
        )}
      </Field>
      <fieldset className={`retry${fields.retry ? ' retry-on' : ''}`}>
        <legend>
          <label className="check">
            <input type="checkbox" checked={fields.retry} onChange={(e) => set('retry', e.target.checked)} />
            Retry failed calls
          </label>
        </legend>
        {fields.retry ? (
          <div className="row">
            <Field label="Retries" hint="1 to 10" error={fieldError(error, 'retry_config.maxRetries')}>
              {(props) => (
                <input
                  {...props}
                  type="number"
                  min={1}
                  max={10}
                  value={fields.maxRetries}
                  onChange={(e) => set('maxRetries', e.target.value)}
                />
              )}
            </Field>
            <Field
              label="Base delay (ms)"
              hint="100 to 5000"
              error={fieldError(error, 'retry_config.backoffMs')}
            >
              {(props) => (
                <input
                  {...props}
                  type="number"
                  min={100}
                  max={5000}
                  step={100}
                  value={fields.backoffMs}
                  onChange={(e) => set('backoffMs', e.target.value)}
                />
              )}
            </Field>
            <Field
              label="Backoff"
              hint={fields.backoffType === 'exponential' ? 'delay × 2 each retry' : 'delay × n for retry n'}
              error={fieldError(error, 'retry_config.backoffType')}
            >
              {(props) => (
                <select
                  {...props}
                  value={fields.backoffType}
                  onChange={(e) => set('backoffType', e.target.value as RequestFields['backoffType'])}
                >
                  <option value="exponential">exponential</option>
                  <option value="linear">linear</option>
                </select>
              )}
            </Field>
          </div>
        ) : null}
      </fieldset>
    </>
  );
}
