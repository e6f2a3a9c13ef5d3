import { describe, expect, it } from 'vitest';
import { otlpEndpointProblem, otlpTracesUrl, parseOtlpHeaders } from './otlp.rules.js';

describe('otlpTracesUrl', () => {
  it.each([
    ['http://collector:4318', 'http://collector:4318/v1/traces'],
    ['http://collector:4318/', 'http://collector:4318/v1/traces'],
    ['https://otel.example.com/otlp', 'https://otel.example.com/otlp/v1/traces'],
    ['https://otel.example.com/otlp/', 'https://otel.example.com/otlp/v1/traces'],
  ])('appends v1/traces to %s', (endpoint, expected) => {
    expect(otlpTracesUrl(endpoint)).toBe(expected);
  });
});

describe('otlpEndpointProblem', () => {
  it('accepts http and https URLs', () => {
    expect(otlpEndpointProblem('http://127.0.0.1:4318')).toBeUndefined();
    expect(otlpEndpointProblem('https://otel.example.com/otlp')).toBeUndefined();
  });

  it.each(['collector:4318', 'grpc://collector:4317', 'not a url', 'http://c:4318/?x=1'])(
    'names the problem of %s',
    (endpoint) => {
      expect(otlpEndpointProblem(endpoint)).toMatch(/must/);
    },
  );
});

describe('parseOtlpHeaders', () => {
  it('reads name=value pairs with percent-encoded values, names lower-cased', () => {
    expect(parseOtlpHeaders('Authorization=Bearer%20abc, x-team=ops,')).toEqual({
      headers: { authorization: 'Bearer abc', 'x-team': 'ops' },
    });
  });

  it('keeps an = inside a value', () => {
    expect(parseOtlpHeaders('x-key=a=b').headers).toEqual({ 'x-key': 'a=b' });
  });

  it.each(['novalue', '=value', 'bad name=1', 'x=%E0%A4%A'])('refuses %s', (value) => {
    expect(parseOtlpHeaders(value).problem).toMatch(/^(entry|the value of entry) 1 /);
  });

  it('never repeats a header it refuses, which may be a credential', () => {
    expect(parseOtlpHeaders('a=1,Bearer secret-token').problem).toBe('entry 2 is not name=value');
  });
});
