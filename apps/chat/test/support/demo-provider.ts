/**
 * `npm run demo-provider -w apps/chat`: the tests' fake provider on a fixed port (3999, or
 * DEMO_PROVIDER_PORT) with one demo account per provider, so the README's curl session runs
 * without real provider accounts. Use it with chat.demo.yaml. Test code, never deployed.
 */
import { accounts } from './accounts.js';
import { FakeProvider } from './fake-provider.js';

const fake = await FakeProvider.start(Number(process.env.DEMO_PROVIDER_PORT ?? 3999));
const demo = {
  twitter: accounts.twitter(fake),
  facebook: accounts.facebook(fake),
  github: accounts.github(fake),
  keycloak: accounts.keycloak(fake),
  google: accounts.google(fake),
};
// The redirect flow: the demo accounts are signed in and consent; the callbacks registered are
// the service's at ROOT_URL (default http://127.0.0.1:3100).
const rootUrl = (process.env.ROOT_URL ?? 'http://127.0.0.1:3100').replace(/\/+$/, '');
for (const [provider, service, token] of [
  ['github', 'github', demo.github.accessToken],
  ['facebook', 'facebook', demo.facebook.accessToken],
  ['oidc', 'keycloak', demo.keycloak.accessToken],
] as const) {
  fake.signedIn.set(provider, token);
  fake.registeredRedirectUris.set(provider, `${rootUrl}/_oauth/${service}`);
}
console.log(`demo identity provider on ${fake.url}; its accounts' credentials:`);
console.log(JSON.stringify(demo, null, 2));
