import { type AppRouter, isAppRoute } from '@ts-rest/core';
import { contract, dashboardContract } from '@webhook-scheduler/contract';
import { type AppError, NotFoundError, ValidationError } from '../errors.js';

interface RouteTemplate {
  method: string;
  /** The path split on `/`; a parameter is `:name`. */
  segments: string[];
}

function templatesOf(router: AppRouter): RouteTemplate[] {
  return Object.values(router).flatMap((value) =>
    isAppRoute(value) ? [{ method: value.method, segments: value.path.split('/') }] : templatesOf(value),
  );
}

const TEMPLATES = [...templatesOf(contract), ...templatesOf(dashboardContract)];

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/**
 * The parameters of `template` that sit on undecodable segments of `segments`, or undefined when the
 * path is not one of the template's. Literal segments compare as Express does, ignoring case.
 */
function undecodableParams(template: string[], segments: string[]): string[] | undefined {
  if (template.length !== segments.length) return undefined;
  const names: string[] = [];
  for (const [index, part] of template.entries()) {
    const segment = segments[index] ?? '';
    if (!part.startsWith(':')) {
      if (part.toLowerCase() !== segment.toLowerCase()) return undefined;
    } else if (segment === '') {
      return undefined;
    } else if (!decodes(segment)) {
      names.push(part.slice(1));
    }
  }
  return names;
}

/**
 * Whether `error` is Express failing to percent-decode a path parameter (`%ZZ`, `%FF`, a bare `%`):
 * it raises a URIError with status 400 while matching the path against a route with parameters.
 */
export function isUndecodablePath(error: unknown): boolean {
  return error instanceof URIError && (error as URIError & { status?: unknown }).status === 400;
}

/**
 * What an undecodable path means to the client: for a route of either contract, a 400 naming each
 * parameter like any other malformed id; for a method the path has no route for, the 404 any
 * unknown route gets.
 */
export function undecodablePathError(method: string, path: string): AppError {
  const segments = path.replace(/(.)\/$/, '$1').split('/');
  const verb = method === 'HEAD' ? 'GET' : method;
  for (const template of TEMPLATES) {
    if (template.method !== verb) continue;
    const names = undecodableParams(template.segments, segments);
    if (names && names.length > 0) {
      return new ValidationError(
        names.map((name) => ({ path: [name], message: 'must be a UUID (not valid percent-encoding)' })),
      );
    }
  }
  return new NotFoundError('Route');
}
