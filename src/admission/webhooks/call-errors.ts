/**
 * How client-go words a webhook's answer that is not 2xx (rest/request.go transformResponse):
 * a Status body gives its message; any other body becomes upstream's
 * NewGenericServerResponse message for the code (k8s.io/apimachinery pkg/api/errors), the
 * body's text quoted for a 5xx when it is text.
 */
import { isRecord } from '../../api/json.js';

/** client-go's cap on the text of an unstructured answer (maxUnstructuredResponseTextBytes). */
const MAX_TEXT = 2048;

const MESSAGES: Readonly<Record<number, string>> = {
  409: 'the server reported a conflict',
  404: 'the server could not find the requested resource',
  400: 'the server rejected our request for an unknown reason',
  401: 'the server has asked for the client to provide credentials',
  405: 'the server does not allow this method on the requested resource',
  422: 'the server rejected our request due to an error in our request',
  503: 'the server is currently unable to handle the request',
  504: 'the server was unable to return a response in the time allotted, but may still be processing the request',
  429: 'the server has received too many requests and has asked us to try again later',
};

/** The error text of an answer with HTTP status `code`, content type `contentType` and body `text`. */
export function describeHttpStatus(code: number, contentType: string, text: string): string {
  try {
    const parsed: unknown = JSON.parse(text);
    if (isRecord(parsed) && parsed.kind === 'Status' && typeof parsed.message === 'string') return parsed.message;
  } catch {
    // not JSON: an unstructured answer
  }
  const serverMessage = contentType.startsWith('text/') ? text.slice(0, MAX_TEXT).trim() : 'unknown';
  if (code === 403 || code === 415) return serverMessage;
  if (code === 406)
    return serverMessage && serverMessage !== 'unknown'
      ? serverMessage
      : 'the server was unable to respond with a content type that the client supports';
  const known = MESSAGES[code];
  if (known) return known;
  if (code >= 500)
    return `an error on the server (${JSON.stringify(serverMessage)}) has prevented the request from succeeding`;
  return `the server responded with the status code ${code} but did not return more information`;
}
