import { describe, expect, it } from 'vitest';
import { originOf } from './origin.rules.js';

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

  it('names the field it reads and says what it must be', () => {
    expect(originOf('https://a.example/x', 'destination')).toEqual({
      issue: {
        path: ['destination'],
        message: 'destination must be scheme, host and port only, such as https://hooks.example.com',
      },
    });
  });
});
