import { describe, expect, it } from 'vitest';
import { maxInFlightIssues, originOf } from './destination.rules.js';

describe('originOf', () => {
  it.each([
    ['https://hooks.example.com', 'https://hooks.example.com'],
    ['https://Hooks.Example.COM:443', 'https://hooks.example.com'],
    ['http://127.0.0.1:08080', 'http://127.0.0.1:8080'],
    ['https://bücher.example', 'https://xn--bcher-kva.example'],
    ['http://[0:0:0:0:0:0:0:1]:3000', 'http://[::1]:3000'],
  ])('reads %s as the origin %s', (raw, origin) => {
    expect(originOf(raw)).toEqual({ origin });
  });

  it.each([
    'hooks.example.com',
    'https://hooks.example.com/',
    'https://hooks.example.com/in',
    'https://a.example?x',
    'https://u@a.example',
    'ftp://a.example',
    '',
  ])('refuses %j with a VALIDATION_ERROR issue on origin', (raw) => {
    expect(originOf(raw)).toMatchObject({ issue: { path: ['origin'] } });
  });
});

describe('maxInFlightIssues', () => {
  it('refuses more calls at once than the service allows per origin', () => {
    expect(maxInFlightIssues(50, 50)).toEqual([]);
    expect(maxInFlightIssues(null, 50)).toEqual([]);
    expect(maxInFlightIssues(51, 50)).toEqual([expect.objectContaining({ path: ['max_in_flight'] })]);
  });
});
