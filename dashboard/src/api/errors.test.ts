import { describe, expect, it } from 'vitest';
import { ApiError, fieldError, formBanner, isNotFound, plainFieldMessage } from './errors.js';

describe('plainFieldMessage', () => {
  it.each([
    ['webhook_url', 'webhook_url is not a valid URL', 'Not a valid URL'],
    ['webhook_url', 'webhook_url must use http or https, not ftp', 'Must use http or https, not ftp'],
    [
      'cron_expression',
      'invalid cron expression: minute field "61": 61 is out of range: minutes go from 0 to 59',
      'Minute field "61": 61 is out of range: minutes go from 0 to 59',
    ],
    ['retry_config.maxRetries', 'maxRetries must be from 1 to 10', 'Must be from 1 to 10'],
    ['timezone', 'must name a zone', 'Must name a zone'],
    ['', 'request body must be a JSON object', 'request body must be a JSON object'],
  ])('says the %s message %j as %j', (path, message, expected) => {
    expect(plainFieldMessage(path, message)).toBe(expected);
  });

  it('keeps a field name that is only the start of a word', () => {
    expect(plainFieldMessage('name', 'names are limited to 60 characters')).toBe(
      'Names are limited to 60 characters',
    );
  });
});

const invalid = (fields: Record<string, string>) =>
  new ApiError('Validation failed', 400, 'VALIDATION_ERROR', fields);

describe('fieldError', () => {
  it('finds the problem of a nested field and says it plainly', () => {
    const error = invalid({ 'retry_config.backoffMs': 'backoffMs must be from 100 to 5000' });
    expect(fieldError(error, 'retry_config')).toBe('backoffMs: Must be from 100 to 5000');
    expect(fieldError(error, 'retry_config.backoffMs')).toBe('Must be from 100 to 5000');
    expect(fieldError(error, 'webhook_url')).toBeUndefined();
  });
});

describe('formBanner', () => {
  it('points to the fields when the form shows every one to blame', () => {
    const banner = formBanner(invalid({ webhook_url: 'x', cron_expression: 'y' }), [
      'webhook_url',
      'cron_expression',
    ]);
    expect(banner?.message).toBe('Fix the fields marked below.');
  });

  it('spells out the problems of fields the form does not show', () => {
    const banner = formBanner(invalid({ webhook_url: 'x', is_active: 'must be true or false' }), [
      'webhook_url',
    ]);
    expect(banner?.message).toBe('is_active: must be true or false');
  });

  it('keeps an error that blames no field', () => {
    const error = new ApiError('Cannot reach the service.', 0, 'NETWORK');
    expect(formBanner(error, ['webhook_url'])).toBe(error);
    expect(formBanner(undefined, [])).toBeUndefined();
  });
});

describe('isNotFound', () => {
  it('is true for a 404 and for an id the API refuses', () => {
    expect(isNotFound(new ApiError('Event not found', 404, 'NOT_FOUND'))).toBe(true);
    expect(isNotFound(invalid({ id: 'must be a UUID' }))).toBe(true);
  });

  it('is false for other errors and for none', () => {
    expect(isNotFound(invalid({ webhook_url: 'x' }))).toBe(false);
    expect(isNotFound(new ApiError('Cannot reach the service.', 0, 'NETWORK'))).toBe(false);
    expect(isNotFound(undefined)).toBe(false);
  });
});
