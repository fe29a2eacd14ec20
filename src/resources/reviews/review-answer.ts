/**
 * What every review kind shares: who asks (the server's own creates carry no user: upstream's
 * anonymous user then), the `userInfo` shape of the authentication reviews, and the answer, the
 * request's object with `status` filled, 201, nothing stored.
 */
import type { ApiObject } from '../../api/object.js';
import { ANONYMOUS } from '../../auth/anonymous.js';
import type { WriterInfo } from '../../registry/access.js';
import type { CreateAnswer, CreateRequest } from '../../registry/types.js';

/** The user the review is made by. */
export const requester = <T extends ApiObject>(req: CreateRequest<T, T>): WriterInfo => req.user ?? ANONYMOUS;

/** authentication.k8s.io UserInfo of `user` (uid and extra only when known). */
export const userInfoOf = (user: WriterInfo) => ({
  username: user.name,
  ...(user.uid ? { uid: user.uid } : {}),
  groups: user.groups,
  ...(user.extra ? { extra: user.extra } : {}),
});

/** The 201 answer: the request's object, creationTimestamp null (as upstream), with `status`. */
export function answered<T extends ApiObject>(req: CreateRequest<T, T>, status: Record<string, unknown>): CreateAnswer {
  return { code: 201, body: { ...req.body, metadata: { ...req.body.metadata, creationTimestamp: null }, status } };
}
