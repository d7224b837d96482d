import type { FastifyError, FastifyInstance } from 'fastify';
import { type ConstraintMessages, translateDatabaseError } from '../db/errors.js';
import { ApiError, errorBody } from '../errors.js';

interface ValidationIssue {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

const CONTEXT_NAMES: Record<string, string> = {
  body: 'body field',
  querystring: 'query parameter',
  params: 'path parameter',
  headers: 'header',
};

/**
 * Turns the validator's report into one sentence naming the field: the first issue that says
 * something (for `value or null` unions the "must be null" alternative is noise).
 */
export function validationMessage(context: string, issues: readonly ValidationIssue[]): string {
  const issue =
    issues.find(
      (candidate) => candidate.keyword !== 'anyOf' && candidate.message !== 'must be null',
    ) ?? issues[0];
  if (!issue) return 'Invalid request';
  const path = issue.instancePath.replace(/^\//, '');
  if (issue.keyword === 'format' && issue.params.format === 'ip')
    return 'Invalid IP address format';
  if (issue.keyword === 'format' && issue.params.format === 'uuid') {
    return `${context}/${path} must be a UUID`;
  }
  if (issue.keyword === 'additionalProperties') {
    const field = [path, issue.params.additionalProperty].filter(Boolean).join('/');
    return `Unknown ${CONTEXT_NAMES[context] ?? context}: ${field}`;
  }
  if (issue.keyword === 'required') {
    const field = [path, issue.params.missingProperty].filter(Boolean).join('/');
    return `Missing required ${CONTEXT_NAMES[context] ?? context}: ${field}`;
  }
  if (issue.keyword === 'enum' && Array.isArray(issue.params.allowedValues)) {
    return `${context}/${path} must be one of ${issue.params.allowedValues.join(', ')}`;
  }
  // Fastify's own form, e.g. `body/vlan_id must be <= 4094`.
  return `${path ? `${context}/${path}` : context} ${issue.message ?? 'is invalid'}`;
}

/** Fastify's client-error codes and the message each gets. */
const FASTIFY_CLIENT_ERRORS: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'Malformed JSON body',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Empty JSON body',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body too large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported media type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Invalid Content-Length',
  FST_ERR_CTP_INVALID_TYPE: 'Invalid Content-Type',
};

/**
 * The one error handler: every error the API answers with is rendered here as
 * `{status: "error", message}`. Client mistakes keep their 4xx; anything unexpected is a 500
 * whose details go to the log, never to the client.
 */
export function installErrorHandler(app: FastifyInstance, constraints: ConstraintMessages) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ApiError) {
      return reply.status(error.statusCode).headers(error.headers).send(errorBody(error.message));
    }
    if (error.validation) {
      const message = validationMessage(error.validationContext ?? 'request', error.validation);
      return reply.status(400).send(errorBody(message));
    }
    const fromDatabase = translateDatabaseError(error, constraints);
    if (fromDatabase) {
      return reply.status(fromDatabase.statusCode).send(errorBody(fromDatabase.message));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (parsing, limits); the JSON parser's message is replaced
      // so nothing of the parser's internals leaks.
      const known = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
      const message =
        known ?? (error instanceof SyntaxError ? 'Malformed JSON body' : error.message);
      return reply.status(status).send(errorBody(message));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send(errorBody('Internal Server Error'));
  });
}
