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
console.log(`demo identity provider on ${fake.url}; its accounts' credentials:`);
console.log(JSON.stringify(demo, null, 2));
