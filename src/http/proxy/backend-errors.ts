/**
 * The Status made of a backend's failed answer, as upstream k8s.io/apimachinery
 * pkg/api/errors NewGenericServerResponse words it (used by the log streamer's response check):
 * a reason and message per code, then ` ( <resource> <name>)`.
 */
import type { StatusReason } from '../../api/status.js';
import { ApiError } from '../../errors/api-error.js';

const BY_CODE: Record<number, [StatusReason, string]> = {
  401: ['Unauthorized', 'the server has asked for the client to provide credentials'],
  404: ['NotFound', 'the server could not find the requested resource'],
  405: ['MethodNotAllowed', 'the server does not allow this method on the requested resource'],
  409: ['Conflict', 'the server reported a conflict'],
  422: ['Invalid', 'the server rejected our request due to an error in our request'],
  429: ['TooManyRequests', 'the server has received too many requests and has asked us to try again later'],
  503: ['ServiceUnavailable', 'the server is currently unable to handle the request'],
  504: [
    'Timeout',
    'the server was unable to return a response in the time allotted, but may still be processing the request',
  ],
};

/**
 * ApiError with the backend's `code`: upstream's reason and message for the code (403 keeps
 * the backend's text; other 5xx quote it), qualified by `resource` (e.g. `pods/log`) and `name`.
 */
export function genericServerResponse(code: number, resource: string, name: string, serverMessage: string): ApiError {
  let [reason, message]: [StatusReason, string] = BY_CODE[code] ?? [
    '',
    `the server responded with the status code ${code} but did not return more information`,
  ];
  if (code === 403) [reason, message] = ['Forbidden', serverMessage];
  else if (!BY_CODE[code] && code >= 500)
    [reason, message] = [
      'InternalError',
      `an error on the server (${JSON.stringify(serverMessage)}) has prevented the request from succeeding`,
    ];
  const qualified = name ? `${message} ( ${resource} ${name})` : `${message} ( ${resource})`;
  return new ApiError(code, reason, qualified, { name, kind: resource });
}
