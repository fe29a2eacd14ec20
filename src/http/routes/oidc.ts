/**
 * Service account issuer discovery (upstream pkg/serviceaccount OpenIDMetadata, KEP-1393):
 * `/.well-known/openid-configuration` and `/openid/v1/jwks`, so that other parties can verify
 * service account tokens with a standard OIDC library. Authorized like other paths
 * (upstream's system:service-account-issuer-discovery role lets service accounts read them).
 */
import type Router from '@koa/router';
import type { ApiState } from '../context.js';

/** What the documents are made from. */
export interface IssuerDocuments {
  discovery(jwksUri: string): Record<string, unknown>;
  jwks(): Promise<{ keys: unknown[] }>;
}

/** Serve both documents; `jwksUri` is where clients fetch the key set (this server's address). */
export function installOidcRoutes(router: Router<ApiState>, issuer: IssuerDocuments, jwksUri: () => string): void {
  router.get('/.well-known/openid-configuration', (ctx) => {
    ctx.type = 'application/json';
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = JSON.stringify(issuer.discovery(jwksUri()));
  });
  router.get('/openid/v1/jwks', async (ctx) => {
    ctx.type = 'application/jwk-set+json';
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = JSON.stringify(await issuer.jwks());
  });
}
