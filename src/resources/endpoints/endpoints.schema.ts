/** Endpoints fields. */
import { kindSchema } from '../../api/meta-schema.js';
import { list, obj, objectReference, protocol, reqInt, reqObj, reqStr, str } from '../../api/core/schema-kit.js';

const address = reqObj({ hostname: str, ip: reqStr, nodeName: str, targetRef: obj(objectReference) });

export const endpointsSchema = kindSchema({
  subsets: list(
    reqObj({
      addresses: list(address),
      notReadyAddresses: list(address),
      ports: list(reqObj({ name: str, port: reqInt, protocol })),
    }),
  ),
});
