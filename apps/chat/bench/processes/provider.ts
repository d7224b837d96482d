/**
 * The benchmark's identity provider, in a process of its own: the tests' fake provider (a
 * `node:http` server checking OAuth 1.0a signatures) with BENCH_USERS Twitter accounts. Prints one
 * JSON line `{"url": ...}` once it listens, then serves until killed.
 */
import { accounts } from '../../test/support/accounts.js';
import { FakeProvider } from '../../test/support/fake-provider.js';
import { benchTwitterId } from './shared.js';

const users = Number(process.env.BENCH_USERS ?? 500);
const fake = await FakeProvider.start();
for (let i = 0; i < users; i++) accounts.twitter(fake, benchTwitterId(i), `bench_user_${i}`);
// The fake records every path it serves for the tests; a benchmark would only grow that list.
fake.calls.push = () => 0;
process.stdout.write(`${JSON.stringify({ url: fake.url })}\n`);
process.on('SIGTERM', () => {
  void fake.close().then(() => process.exit(0));
});
